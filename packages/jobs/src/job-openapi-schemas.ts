// The schemas of a job's OpenAPI part: the input body as `createJsonSchema` of @tessera/fields
// makes a record's create body, and the job as `encodeJob` writes it (the record columns of its
// inputs from `recordJsonSchema`, and where it stands).
import {
  camelize,
  createJsonSchema,
  type JsonSchema,
  type Model,
  recordJsonSchema,
} from "@tessera/fields";
import type { OpenApiObject } from "@tessera/http";
import type { JobDefinition } from "./job-definition.js";
import { JOB_STATUSES } from "./job-status.js";

/** `render` → `Render`: how the document names a job's schemas and operations. */
export function pascal(name: string): string {
  const camel = camelize(name);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

/** A standalone JSON Schema as a component: the document sets the dialect. */
function embedded(schema: JsonSchema): OpenApiObject {
  const { $schema: _, title: __, ...rest } = schema;
  return rest;
}

/** What `encodeJob` adds to the inputs: where the job stands. */
const JOB_STATE: Readonly<Record<string, OpenApiObject>> = {
  status: {
    enum: [...JOB_STATUSES],
    description:
      "`queued` (not yet accepted by the service; retried), `submitted`, `running`, then `done` or `failed`, which never change again.",
  },
  external_id: {
    type: ["string", "null"],
    description: "The service's id for the job, from its answer to the submission.",
  },
  progress: {
    type: "integer",
    minimum: 0,
    maximum: 100,
    description: "Never decreases; 100 once done.",
  },
  result: {
    description: "The service's output, any JSON value; null until it sends one.",
  },
  error: {
    type: ["string", "null"],
    description: "The last submission error while queued; why it failed once failed.",
  },
  attempts: {
    type: "integer",
    minimum: 1,
    description: "Submission attempts made so far, the one in flight included.",
  },
};

/** The job as `encodeJob` writes it: `id`, `user_id`, the inputs, its state, its times. */
function jobSchema(model: Model): OpenApiObject {
  const record = recordJsonSchema(model);
  const { created_at, updated_at, ...head } = record.properties as Record<string, JsonSchema>;
  const properties = { ...head, ...JOB_STATE, created_at, updated_at };
  return {
    type: "object",
    description: `A ${model.name} job: its inputs at the top level, where it stands, and when. Never the callback token.`,
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

/** The `components.schemas` names of a job: `RenderJob`, `RenderJobInput`. */
export function jobSchemaNames(definition: JobDefinition): {
  readonly job: string;
  readonly input: string;
} {
  const name = pascal(definition.name);
  return { job: `${name}Job`, input: `${name}JobInput` };
}

/** The `components.schemas` of a job: the job and its input body. */
export function jobSchemas(definition: JobDefinition): Record<string, OpenApiObject> {
  const model: Model = {
    name: definition.name,
    table: definition.table,
    fields: definition.inputs,
  };
  const names = jobSchemaNames(definition);
  return {
    [names.job]: jobSchema(model),
    [names.input]: {
      ...embedded(createJsonSchema(model)),
      description: `The inputs of a ${definition.name} job. Keys it does not list are ignored.`,
    },
  };
}
