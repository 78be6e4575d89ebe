import { parseDeclaration } from "@tessera/fields";

/**
 * The import a generated module adds when it declares a rich_text field: fields holds no HTML
 * parser, so the model (or job) is given the sanitizer where it is defined.
 */
export const SANITIZER_IMPORT = 'import { richTextSanitizer } from "@tessera/sanitizer";';

/** The option that hands a definition the sanitizer, as written in an options object. */
export const SANITIZER_OPTION = "richText: richTextSanitizer";

/** Whether any of `declarations` (already accepted by the generator) is a rich_text field. */
export function declaresRichText(declarations: readonly string[]): boolean {
  return declarations.some((declaration) => {
    const parsed = parseDeclaration(declaration);
    return parsed.ok && parsed.value.type === "rich_text";
  });
}
