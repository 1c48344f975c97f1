/** True when `value` parses as an absolute http: or https: URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The host of an http(s) URL without a leading "www.", or null. */
export function displayHost(value: string): string | null {
  if (!isHttpUrl(value)) return null;
  return new URL(value).hostname.replace(/^www\./, '');
}
