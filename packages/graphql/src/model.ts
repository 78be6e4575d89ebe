// `@tessera/graphql/model`: declaring a model for GraphQL without loading graphql-js, for an app
// that builds its GraphQL routes only when the first operation comes.
export {
  type GraphqlColumn,
  type GraphqlModel,
  type GraphqlNames,
  type GraphqlScalarKind,
  graphqlModel,
} from "./graphql-model.js";
