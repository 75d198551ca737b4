// Where the API lives and how a call shows it comes from the console (docs/sessions.md): one place
// for the server, the console's HTTP client and the simulator's web client.

/** The API's path on the console's origin. */
export const API_PREFIX = '/veritas';
/** The cookie the server sets with the XSRF token, which every call but a GET echoes in XSRF_HEADER. */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';
