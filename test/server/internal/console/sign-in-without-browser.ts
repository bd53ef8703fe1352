/**
 * Signs in to the console over plain HTTP against an IdP started with `skipPrompt` (no pages to click): follows
 * the redirects console → IdP → console by hand, with one cookie jar, the way a browser would.
 */

export class CookieJar {
  private readonly cookies = new Map<string, string>();
  /** The raw Set-Cookie lines seen, for assertions on attributes. */
  readonly setCookies: string[] = [];

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      this.setCookies.push(line);
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now()),
      );
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }
}

/** GET `url` and follow redirects (at most 20), carrying cookies; resolves to the last response. */
export async function follow(url: string, jar: CookieJar): Promise<Response> {
  let next = url;
  for (let hops = 0; hops < 20; hops += 1) {
    const response = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(response);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return response;
    await response.body?.cancel();
    next = new URL(location, next).href;
  }
  throw new Error(`more than 20 redirects from ${url}`);
}

/** The CSRF token of the forms on a console page. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF field on the page');
  return match[1];
}
