/** url transport: POSTs the JSON report to `--report-url` (no retries, 10 s timeout); a non-2xx answer is a failure. */
import { got } from 'got';
import { scannerError } from '../errors.js';

export async function postToUrl(url: string, json: string): Promise<void> {
  let status: number;
  try {
    const response = await got.post(url, {
      body: json,
      headers: { 'content-type': 'application/json', 'user-agent': 'gatehouse-scanner/0.1' },
      throwHttpErrors: false,
      retry: { limit: 0 },
      timeout: { request: 10_000 },
    });
    status = response.statusCode;
  } catch (error) {
    throw scannerError(
      'report_transport_failed',
      `--report-url ${url}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (status < 200 || status > 299)
    throw scannerError('report_transport_failed', `--report-url ${url}: the receiver answered ${status}`);
}
