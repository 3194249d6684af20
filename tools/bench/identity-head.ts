/**
 * A HEAD request for the identity representation. Each coding of a document has an ETag of its
 * own, and the codings of a new version follow it by a moment (the build worker sends them
 * after), so only the identity ETag tells one data version from the next. The benches and the
 * tests that wait for a new version use it.
 */
export const IDENTITY_HEAD: RequestInit = {
  method: 'HEAD',
  headers: { 'accept-encoding': 'identity' },
};
