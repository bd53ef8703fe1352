/**
 * A minimal user agent for the IdP's pages: keeps cookies per origin, follows redirects by hand until it
 * reaches a URL outside the IdP (the relying party's redirect or post-logout URI), and submits HTML forms.
 * The relying party itself is always openid-client; this only plays the browser.
 */
export interface PageResult {
  url: string;
  status: number;
  html?: string;
}

export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly idpOrigin: string) {}

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  hasCookie(name: string): boolean {
    return this.cookies.has(name);
  }

  /** Requests `url` and follows redirects while they stay on the IdP; stops at the first page or foreign URL. */
  async go(url: string, init: { method?: string; body?: URLSearchParams } = {}): Promise<PageResult> {
    let current = new URL(url, this.idpOrigin).href;
    let method = init.method ?? 'GET';
    let body: URLSearchParams | undefined = init.body;
    for (let hops = 0; hops < 20; hops += 1) {
      if (new URL(current).origin !== this.idpOrigin) return { url: current, status: 0 };
      const response = await fetch(current, {
        method,
        body,
        redirect: 'manual',
        headers: {
          cookie: this.cookieHeader(),
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
      });
      this.remember(response);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        current = new URL(location, current).href;
        method = 'GET';
        body = undefined;
        await response.body?.cancel();
        continue;
      }
      return { url: current, status: response.status, html: await response.text() };
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** Submits the form whose action matches `actionPattern`, with the named button's value and extra fields. */
  async submit(page: PageResult, actionPattern: RegExp, fields: Record<string, string> = {}): Promise<PageResult> {
    const forms = [...(page.html ?? '').matchAll(/<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)];
    const form = forms.find((f) => actionPattern.test(f[1]));
    if (!form) throw new Error(`no form with action ${actionPattern} on ${page.url}:\n${page.html}`);
    const body = new URLSearchParams();
    for (const input of form[2].matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) {
      body.set(input[1], input[2]);
    }
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    return this.go(new URL(form[1].replace(/&amp;/g, '&'), page.url).href, { method: 'POST', body });
  }
}
