/** The signed-in user a request acts as; policies take this, never a raw request. */
export interface Viewer {
  id: string;
  email: string;
  name: string;
  /** Set when the request is authenticated by this personal access token rather than a session cookie. */
  tokenId?: string;
}
