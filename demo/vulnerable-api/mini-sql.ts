/**
 * A tiny SQL engine for the demo API's product table: `SELECT <columns|*> FROM <table> [WHERE <expr>]` with string
 * and number literals, `?` parameters, `=`/`!=`/`<>`/`<`/`>`/`LIKE`, `AND`/`OR`/`NOT`, parentheses, `||` and `--`
 * comments. It exists so the vulnerable twin fails the way a real database fails: a query built by concatenation
 * breaks on a quote with SQLite's own error text, and `' OR '1'='1` really returns every row. Not a database.
 */
export type Row = Record<string, string | number | null>;
type Value = string | number | null;

class SqlError extends Error {
  readonly code = 'SQLITE_ERROR';
  constructor(message: string) {
    super(`SQLITE_ERROR: ${message}`);
    this.name = 'SqliteError';
  }
}

type Token = { kind: 'string' | 'number' | 'word' | 'op' | 'param'; text: string; value?: Value };

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) i += 1;
    else if (sql.startsWith('--', i)) i = sql.includes('\n', i) ? sql.indexOf('\n', i) : sql.length;
    else if (c === "'") {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) throw new SqlError(`unrecognized token: "${sql.slice(i)}"`);
        if (sql[j] === "'" && sql[j + 1] === "'") {
          value += "'";
          j += 2;
        } else if (sql[j] === "'") break;
        else {
          value += sql[j];
          j += 1;
        }
      }
      tokens.push({ kind: 'string', text: sql.slice(i, j + 1), value });
      i = j + 1;
    } else if (/[0-9]/.test(c)) {
      const text = /^[0-9]+(\.[0-9]+)?/.exec(sql.slice(i))![0];
      tokens.push({ kind: 'number', text, value: Number(text) });
      i += text.length;
    } else if (/[A-Za-z_]/.test(c)) {
      const text = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i))![0];
      tokens.push({ kind: 'word', text });
      i += text.length;
    } else if (c === '?') {
      tokens.push({ kind: 'param', text: '?' });
      i += 1;
    } else {
      const text = ['<=', '>=', '!=', '<>', '==', '||'].find((op) => sql.startsWith(op, i)) ?? c;
      if (!'=<>!|(),*;'.includes(text[0])) throw new SqlError(`unrecognized token: "${text}"`);
      tokens.push({ kind: 'op', text });
      i += text.length;
    }
  }
  return tokens;
}

type Expr = (row: Row) => Value;

const truthy = (value: Value): boolean => value !== null && value !== 0 && value !== '0' && value !== '';
const asBool = (value: boolean): number => (value ? 1 : 0);

function compare(a: Value, b: Value): number | null {
  if (a === null || b === null) return null;
  const bothNumeric = typeof a === 'number' && typeof b === 'number';
  if (bothNumeric) return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

function like(text: Value, pattern: Value): number {
  if (text === null || pattern === null) return 0;
  const source = String(pattern)
    .replace(/[.+^${}()|[\]\\*?]/g, '\\$&')
    .replace(/%/g, '.*')
    .replace(/_/g, '.');
  return asBool(new RegExp(`^${source}$`, 'is').test(String(text)));
}

class Parser {
  private at = 0;
  private param = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly params: Value[],
  ) {}

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }
  private isWord(word: string): boolean {
    const token = this.peek();
    return token?.kind === 'word' && token.text.toUpperCase() === word;
  }
  private fail(): never {
    const token = this.peek();
    throw new SqlError(token ? `near "${token.text}": syntax error` : 'incomplete input');
  }
  private expectWord(word: string): void {
    if (!this.isWord(word)) this.fail();
    this.at += 1;
  }

  select(): { columns: string[]; table: string; where?: Expr } {
    this.expectWord('SELECT');
    const columns: string[] = [];
    do {
      const token = this.peek();
      if (token?.text === '*' || token?.kind === 'word') columns.push(token.text);
      else this.fail();
      this.at += 1;
    } while (this.peek()?.text === ',' && ++this.at);
    this.expectWord('FROM');
    const table = this.peek();
    if (table?.kind !== 'word') this.fail();
    this.at += 1;
    let where: Expr | undefined;
    if (this.isWord('WHERE')) {
      this.at += 1;
      where = this.or();
    }
    if (this.peek()?.text === ';') this.at += 1;
    if (this.peek()) this.fail();
    return { columns, table: table.text, ...(where ? { where } : {}) };
  }

  private or(): Expr {
    let left = this.and();
    while (this.isWord('OR')) {
      this.at += 1;
      const [l, r] = [left, this.and()];
      left = (row) => asBool(truthy(l(row)) || truthy(r(row)));
    }
    return left;
  }
  private and(): Expr {
    let left = this.not();
    while (this.isWord('AND')) {
      this.at += 1;
      const [l, r] = [left, this.not()];
      left = (row) => asBool(truthy(l(row)) && truthy(r(row)));
    }
    return left;
  }
  private not(): Expr {
    if (!this.isWord('NOT')) return this.comparison();
    this.at += 1;
    const inner = this.not();
    return (row) => asBool(!truthy(inner(row)));
  }
  private comparison(): Expr {
    const left = this.concat();
    const token = this.peek();
    const op =
      token?.kind === 'op' && ['=', '==', '!=', '<>', '<', '>', '<=', '>='].includes(token.text)
        ? token.text
        : this.isWord('LIKE')
          ? 'LIKE'
          : undefined;
    if (!op) return left;
    this.at += 1;
    const right = this.concat();
    if (op === 'LIKE') return (row) => like(left(row), right(row));
    return (row) => {
      const order = compare(left(row), right(row));
      if (order === null) return null;
      const ok = {
        '=': order === 0,
        '==': order === 0,
        '!=': order !== 0,
        '<>': order !== 0,
        '<': order < 0,
        '>': order > 0,
        '<=': order <= 0,
        '>=': order >= 0,
      }[op]!;
      return asBool(ok);
    };
  }
  private concat(): Expr {
    let left = this.primary();
    while (this.peek()?.text === '||') {
      this.at += 1;
      const [l, r] = [left, this.primary()];
      left = (row) => (l(row) === null || r(row) === null ? null : `${l(row)}${r(row)}`);
    }
    return left;
  }
  private primary(): Expr {
    const token = this.peek();
    if (!token) this.fail();
    this.at += 1;
    if (token.kind === 'string' || token.kind === 'number') return () => token.value!;
    if (token.kind === 'param') {
      const value = this.params[this.param++] ?? null;
      return () => value;
    }
    if (token.kind === 'word' && token.text.toUpperCase() === 'NULL') return () => null;
    if (
      token.kind === 'word' &&
      !['AND', 'OR', 'NOT', 'LIKE', 'FROM', 'WHERE', 'SELECT'].includes(token.text.toUpperCase())
    ) {
      const column = token.text;
      return (row) => {
        if (!(column in row)) throw new SqlError(`no such column: ${column}`);
        return row[column]!;
      };
    }
    if (token.text === '(') {
      const inner = this.or();
      if (this.peek()?.text !== ')') this.fail();
      this.at += 1;
      return inner;
    }
    this.at -= 1;
    return this.fail();
  }
}

/** Runs one SELECT over `tables`; `params` bind the `?` placeholders in order (what the secure twin does). */
export function query(tables: Record<string, Row[]>, sql: string, params: Value[] = []): Row[] {
  const statement = new Parser(tokenize(sql), params).select();
  const rows = tables[statement.table];
  if (!rows) throw new SqlError(`no such table: ${statement.table}`);
  const matching = statement.where ? rows.filter((row) => truthy(statement.where!(row))) : rows;
  if (statement.columns.includes('*')) return matching.map((row) => ({ ...row }));
  return matching.map((row) =>
    Object.fromEntries(
      statement.columns.map((column) => {
        if (!(column in row)) throw new SqlError(`no such column: ${column}`);
        return [column, row[column]!];
      }),
    ),
  );
}
