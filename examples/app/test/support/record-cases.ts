// The record routes' cases: the JSON API of every model, uploads, and the HTML pages and forms.
import fc, { type Arbitrary } from "fast-check";
import { recordModels } from "../../src/records.js";
import { idIn, pathOf } from "./case-builders.js";
import { formPayload, jsonPayload, multipartPayload, type Payload } from "./fuzz-bodies.js";
import { bearerHeaders } from "./fuzz-headers.js";
import { type FuzzedRoute, fuzzed, listQuery, page } from "./fuzzed-route.js";
import { hostileSegment } from "./hostile-input.js";
import { fileInputs, recordFormValues, recordJsonValues, requiredInputs } from "./record-inputs.js";

/** The fixture placeholders of a model's records: kept ones, and victims for delete routes. */
function recordIds(table: string): { kept: string[]; victims: string[] } {
  const singular = table.replace(/s$/, "");
  return {
    kept: [`{${singular}}`, ...(table === "posts" ? ["{stranger-post}"] : [])],
    victims: [`{victim-${singular}}`],
  };
}

/**
 * `/api/<plural>` of every user's model and `/api/orgs/:slug/<plural>` of every organization's:
 * list, create, show, update, delete (an organization's in the fixture organization, of no one's,
 * or a hostile slug).
 */
export const jsonRecordRoutes: FuzzedRoute[] = recordModels.flatMap((model) => {
  const scoped = model.owner === "organization";
  const base = scoped ? `/api/orgs/:slug/${model.table}` : `/api/${model.table}`;
  const slug = scoped ? { slug: idIn(["{org}", "no-such-org"], hostileSegment) } : {};
  const { kept, victims } = recordIds(model.table);
  const id = idIn(kept, hostileSegment);
  const victim = idIn(victims, hostileSegment);
  const body = jsonPayload(recordJsonValues(model), requiredInputs(model));
  const bearer = { headers: bearerHeaders };
  return [
    fuzzed(`GET ${base}`, "json", { ...bearer, path: pathOf(base, slug, listQuery) }),
    fuzzed(`POST ${base}`, "json", { ...bearer, path: pathOf(base, slug), payload: body }),
    fuzzed(`GET ${base}/:id`, "json", { ...bearer, path: pathOf(`${base}/:id`, { ...slug, id }) }),
    fuzzed(`PATCH ${base}/:id`, "json", {
      ...bearer,
      path: pathOf(`${base}/:id`, { ...slug, id }),
      payload: body,
    }),
    fuzzed(`DELETE ${base}/:id`, "json", {
      ...bearer,
      path: pathOf(`${base}/:id`, { ...slug, id: victim }),
    }),
  ];
});

const upload = multipartPayload(["file"], {});
const post = idIn(["{post}", "{stranger-post}"], hostileSegment);
const victimPost = idIn(["{victim-post}"], hostileSegment);
const bearerRoute = (
  route: string,
  params: Record<string, Arbitrary<string>>,
  payload?: Arbitrary<Payload>,
) =>
  fuzzed(route, "json", {
    headers: bearerHeaders,
    path: pathOf(route.split(" ")[1]!, params),
    ...(payload ? { payload } : {}),
  });
const photo = idIn(["{photo}"], hostileSegment);
const victimPhoto = idIn(["{victim-photo}"], hostileSegment);
/** The single `cover` and the multi-file `photos` of posts: uploads, downloads, deletes. */
export const attachmentRoutes: FuzzedRoute[] = [
  bearerRoute("GET /api/posts/:id/cover", { id: post }),
  bearerRoute("PUT /api/posts/:id/cover", { id: post }, upload),
  bearerRoute("DELETE /api/posts/:id/cover", { id: victimPost }),
  bearerRoute("GET /api/posts/:id/photos", { id: post }),
  bearerRoute("POST /api/posts/:id/photos", { id: post }, upload),
  bearerRoute("DELETE /api/posts/:id/photos", { id: victimPost }),
  bearerRoute("GET /api/posts/:id/photos/:file_id", { id: post, file_id: photo }),
  bearerRoute("DELETE /api/posts/:id/photos/:file_id", { id: victimPost, file_id: victimPhoto }),
];

/**
 * The pages and forms of every model: a user's at `/<plural>`, an organization's at
 * `/orgs/:slug/<plural>` (in the fixture organization, of no one's, or a hostile slug).
 */
export const htmlRecordRoutes: FuzzedRoute[] = recordModels.flatMap((model) => {
  const scoped = model.owner === "organization";
  const base = scoped ? `/orgs/:slug/${model.table}` : `/${model.table}`;
  const slug = scoped ? { slug: idIn(["{org}", "no-such-org"], hostileSegment) } : {};
  const { kept, victims } = recordIds(model.table);
  const id = idIn(kept, hostileSegment);
  const files = fileInputs(model);
  const required = requiredInputs(model);
  const form = formPayload(recordFormValues(model), required);
  const payload =
    files.length === 0
      ? form
      : fc.oneof(form, multipartPayload(files, recordFormValues(model), required));
  return [
    page(`GET ${base}`, { path: pathOf(base, slug, listQuery) }),
    page(`GET ${base}/new`, { path: pathOf(`${base}/new`, slug) }),
    page(`POST ${base}`, { path: pathOf(base, slug), payload }),
    page(`GET ${base}/:id`, { path: pathOf(`${base}/:id`, { ...slug, id }) }),
    page(`GET ${base}/:id/edit`, { path: pathOf(`${base}/:id/edit`, { ...slug, id }) }),
    page(`POST ${base}/:id`, { path: pathOf(`${base}/:id`, { ...slug, id }), payload }),
    page(`POST ${base}/:id/delete`, {
      path: pathOf(`${base}/:id/delete`, { ...slug, id: idIn(victims, hostileSegment) }),
    }),
  ];
});
/** The downloads of posts' files from the pages. */
export const downloadRoutes: FuzzedRoute[] = [
  page("GET /posts/:id/cover", { path: pathOf("/posts/:id/cover", { id: post }) }),
  page("GET /posts/:id/photos/:file_id", {
    path: pathOf("/posts/:id/photos/:file_id", { id: post, file_id: photo }),
  }),
];
