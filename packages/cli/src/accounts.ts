import { renderTemplate } from "./template.js";

/** The account generator's `src/models/user.ts`, from its template. */
export function userModule(): string {
  return renderTemplate("user-model.ts", {});
}
