/** The signed-in user a request acts as; policies take this, never a raw request. */
export interface Viewer {
  id: string;
  email: string;
  name: string;
}
