/** The `$id` of a schema in schemas/api/ (a body of the public API), as routes and services name it. */
export function apiSchemaId(name: string): string {
  return `https://gatehouse.dev/schemas/api/${name}.schema.json`;
}
