/**
 * The demo GraphQL API's schema as SDL, one per twin: the vulnerable twin's `User` type also exposes the password and
 * the API key (excessive data exposure); otherwise both twins declare the same fields, so the secure twin can be
 * scanned with `--schema` (its introspection is off). `User.orders` / `Order.owner` form the type cycle deep queries use.
 */
const USER_SECRETS = `
  "Legacy column, in clear."
  password: String
  apiKey: String`;

export function schemaSdl(secure: boolean): string {
  return `
type User {
  id: ID!
  username: String!
  email: String!
  displayName: String!
  role: String!${secure ? '' : USER_SECRETS}
  orders: [Order!]!
}

type Order {
  id: ID!
  item: String!
  total: Int!
  owner: User!
}

type Product {
  id: Int!
  name: String!
  category: String!
  price: Int!
}

type AdminStats {
  users: Int!
  orders: Int!
  revenue: Int!
}

type Diagnostics {
  uptimeSeconds: Int!
  nodeVersion: String!
  databaseUrl: String!
}

type AuthPayload {
  token: String!
  user: User!
}

type ImportResult {
  id: ID!
  url: String!
  status: Int!
  bytes: Int!
}

type Session {
  userId: ID!
  username: String!
  expiresAt: Int!
}

type Note {
  id: ID!
  title: String!
  body: String!
}

type Query {
  "The caller's own profile."
  me: User
  "Every user of the shop."
  users: [User!]!
  "The caller's orders."
  orders: [Order!]!
  "One order by id."
  order(id: ID!): Order
  "The products of a category."
  products(category: String!): [Product!]!
  "A help document by its path."
  helpDocument(path: String!): String
  "Shop statistics, for administrators."
  adminStats: AdminStats
  "Service diagnostics, for operators."
  systemDiagnostics: Diagnostics
  "The caller's notes."
  notes: [Note!]!
  "Who a session is, and until when (null for none)."
  session(token: String!): Session
}

type Mutation {
  "Signs in and answers a bearer token."
  login(username: String!, password: String!): AuthPayload
  "Imports a product feed from a URL."
  importFromUrl(url: String!): ImportResult
  "Checks that a host answers (runs ping)."
  pingHost(host: String!): String
  "Checks that a partner's status page answers: http://host:port/path."
  checkStatusPage(host: String!, port: Int!, path: String!): Int
  "Adds a note for the caller."
  createNote(title: String!, body: String!): Note
  "Deletes every note of every user."
  deleteAllNotes: Boolean
}
`;
}
