import { describe, expect, it } from "vitest";
import { awsRequestSigner } from "../src/aws-signer.js";
import suite from "./vectors/aws-sigv4-test-suite.json" with { type: "json" };

/** A suite `.req` file: request line, `Name:value` headers, a blank line, the body. */
function parseSuiteRequest(req: string) {
  const [head, body] = req.split("\n\n") as [string, string | undefined];
  const [requestLine, ...headerLines] = head.split("\n");
  const [method, path] = requestLine!.split(" ") as [string, string];
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(":")),
      line.slice(line.indexOf(":") + 1),
    ]),
  );
  return { method, path, headers, body };
}

describe("awsRequestSigner (aws4fetch as the SES adapter configures it)", () => {
  const sign = awsRequestSigner(suite.credentials, suite.region, suite.service);

  for (const vector of suite.cases) {
    it(`signs ${vector.name} as AWS's test suite does`, async () => {
      const { method, path, headers, body } = parseSuiteRequest(vector.req);
      // aws4fetch sets Host from the URL and X-Amz-Date from `datetime` itself.
      const { Host: host, "X-Amz-Date": date, ...rest } = headers;
      expect(date).toBe(suite.datetime);
      const signed = await sign(
        `https://${host}${path}`,
        { method, headers: rest, ...(body === undefined ? {} : { body }) },
        suite.datetime,
      );
      expect(signed.headers.get("Authorization")).toBe(vector.authz);
      expect(signed.headers.get("X-Amz-Date")).toBe(suite.datetime);
    });
  }
});
