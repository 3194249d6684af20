/** Absolute URLs of the service, all derived from BASE_URL. */
export interface ServiceUrls {
  base: string;
  reviews: string;
  jsonFeed: string;
  atomFeed: string;
  hub: string;
  openapi: string;
}

/** Derives every absolute URL the service emits from `baseUrl` (no trailing slash). */
export function serviceUrls(baseUrl: string): ServiceUrls {
  return {
    base: baseUrl,
    reviews: `${baseUrl}/reviews.json`,
    jsonFeed: `${baseUrl}/api/feed.json`,
    atomFeed: `${baseUrl}/feed.xml`,
    hub: `${baseUrl}/api/websub/hub`,
    openapi: `${baseUrl}/openapi.json`,
  };
}
