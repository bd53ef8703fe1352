/**
 * Database error text as the five common engines word it (SQLite, PostgreSQL, MySQL/MariaDB, Microsoft SQL Server,
 * Oracle), written from their documented messages: a response that carries one is talking about a failed query.
 * Shared by injection.sql (proof) and misconfiguration.verbose_errors (exposure).
 */
export interface SqlSignature {
  dbms: 'SQLite' | 'PostgreSQL' | 'MySQL' | 'Microsoft SQL Server' | 'Oracle';
  pattern: RegExp;
}

const SQL_ERROR_SIGNATURES: readonly SqlSignature[] = [
  { dbms: 'SQLite', pattern: /SQLITE_ERROR|sqlite3?\.OperationalError|SQLiteException|System\.Data\.SQLite/ },
  { dbms: 'SQLite', pattern: /unrecognized token: "|near "[^"\n]{0,80}": syntax error/ },
  { dbms: 'PostgreSQL', pattern: /PSQLException|org\.postgresql\.util|pg_query\(\)|PG::SyntaxError|psycopg2?\.errors/ },
  {
    dbms: 'PostgreSQL',
    pattern: /syntax error at or near "|unterminated quoted string at or near "|invalid input syntax for (type )?\w+/,
  },
  {
    dbms: 'MySQL',
    pattern:
      /You have an error in your SQL syntax|check the manual that corresponds to your (MySQL|MariaDB) server version/,
  },
  { dbms: 'MySQL', pattern: /ER_PARSE_ERROR|com\.mysql\.jdbc|MySqlException|mysqli?_(query|fetch)|SQLSTATE\[42000\]/ },
  {
    dbms: 'Microsoft SQL Server',
    pattern: /Unclosed quotation mark after the character string|Incorrect syntax near '/,
  },
  {
    dbms: 'Microsoft SQL Server',
    pattern: /System\.Data\.SqlClient|Microsoft\.Data\.SqlClient|ODBC SQL Server Driver|OLE DB Provider for SQL Server/,
  },
  { dbms: 'Oracle', pattern: /\bORA-\d{5}\b|quoted string not properly terminated|oracle\.jdbc|OracleException/ },
];

/** The first database error signature in `text`, if any. */
export function sqlErrorIn(text: string): { dbms: SqlSignature['dbms']; excerpt: string } | undefined {
  for (const { dbms, pattern } of SQL_ERROR_SIGNATURES) {
    const match = pattern.exec(text);
    if (match) return { dbms, excerpt: match[0].slice(0, 80) };
  }
  return undefined;
}
