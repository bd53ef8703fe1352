/**
 * Path templates (`/users/{userId}/orders`) as the model reads them: their segments and parameters, and the values a
 * request URL gives each parameter, so the send gate can tell which objects any request names (docs/architecture.md
 * §2.8, safety rule).
 */

export interface TemplateSegment {
  /** The segment as written (`users`, `{userId}`). */
  text: string;
  /** The parameter's name when the whole segment is one (`userId`). */
  parameter?: string;
}

export function segmentsOf(template: string): TemplateSegment[] {
  return template
    .split('/')
    .filter((s) => s !== '')
    .map((text) => {
      const parameter = /^\{([^}]+)\}$/.exec(text)?.[1];
      return parameter === undefined ? { text } : { text, parameter };
    });
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The parameter values `pathname` gives `template`, or undefined when it is not that template's path. `basePath` is
 * the server URL's path (`/v2`), which the template does not carry.
 */
export function matchTemplate(template: string, pathname: string, basePath = ''): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.replace(/\{([^}]+)\}|[^{]+/g, (part, name: string | undefined) => {
    if (name === undefined) return escape(part);
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${escape(basePath.replace(/\/$/, ''))}${pattern}/?$`).exec(pathname);
  if (!match) return undefined;
  const values: Record<string, string> = {};
  names.forEach((name, index) => {
    try {
      values[name] = decodeURIComponent(match[index + 1]);
    } catch {
      values[name] = match[index + 1];
    }
  });
  return values;
}

/** The template with `values` in place of its parameters (URL-encoded); parameters without a value stay as they are. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^}]+)\}/g, (whole, name: string) =>
    values[name] === undefined ? whole : encodeURIComponent(values[name]),
  );
}

/** How many static segments precede the template's path in `url` (the server's base path, e.g. `/api/v2`). */
export function basePathOf(url: string, template: string): string {
  const segments = new URL(url).pathname.split('/');
  const own = template.split('/').length;
  return segments.slice(0, Math.max(1, segments.length - own + 1)).join('/');
}
