import { camelize, childAttachmentName, type Field, type Model } from "@tessera/fields";

/** `blog_post` → `BlogPost`: how the OpenAPI document names a model's schemas. */
export function schemaName(...words: readonly string[]): string {
  const camel = camelize(words.join("_"));
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

/** The `components.schemas` names of a model: `Post`, `PostCreate`, `PostUpdate`. */
export function modelSchemaNames(model: Model): {
  readonly record: string;
  readonly create: string;
  readonly update: string;
} {
  return {
    record: schemaName(model.name),
    create: schemaName(model.name, "create"),
    update: schemaName(model.name, "update"),
  };
}

/** The schema name of one file of an `attachments` field: `PostPhoto` for `photos`. */
export function fileSchemaName(model: Model, field: Field): string {
  return schemaName(model.name, childAttachmentName(field));
}

/** An `operationId`: `listPosts`, `createPost`, `getPostCover`. */
export function operationId(...words: readonly string[]): string {
  return camelize(words.join("_"));
}
