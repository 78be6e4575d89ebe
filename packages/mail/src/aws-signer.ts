import { AwsClient } from "aws4fetch";

/** AWS credentials: an access key pair, and the session token of temporary credentials. */
export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string | undefined;
}

/** What a request to sign is made of. */
export interface UnsignedRequest {
  readonly method: string;
  readonly headers: HeadersInit;
  readonly body?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** Signs one request; `datetime` (`20150830T123600Z`) replaces the current time, for vectors. */
export type AwsRequestSigner = (
  url: string,
  request: UnsignedRequest,
  datetime?: string,
) => Promise<Request>;

/**
 * A SigV4 signer for `service` in `region`, configured as the SES adapter uses it: every header
 * we set is signed (Content-Type too, which aws4fetch leaves out by default), and aws4fetch's
 * own retries are off because {@link callProvider} owns the retry policy.
 */
export function awsRequestSigner(
  credentials: AwsCredentials,
  region: string,
  service: string,
): AwsRequestSigner {
  const client = new AwsClient({
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    ...(credentials.sessionToken === undefined ? {} : { sessionToken: credentials.sessionToken }),
    service,
    region,
    retries: 0,
  });
  return (url, request, datetime) =>
    client.sign(url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      aws: { allHeaders: true, ...(datetime === undefined ? {} : { datetime }) },
    });
}
