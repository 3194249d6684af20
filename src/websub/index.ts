export { hubFormSchema, grantLease, MAX_CALLBACK_LENGTH, MAX_SECRET_BYTES } from './form.js';
export type { HubForm, HubRequest, LeaseBounds } from './form.js';
export { startHub, topicPaths, MAX_RESPONSE_BYTES } from './hub.js';
export type { Hub, HubOptions } from './hub.js';
export { hubOpenApiPaths } from './openapi.js';
export { MAX_FAILURES } from './internal/worker.js';
export type { Clock, DeliveryOutcome } from './internal/worker.js';
export type { Resolver } from './internal/target.js';
// The outbound guard, shared with the review sources' watched export URLs (src/sources/url).
export { createAddressPolicy } from './internal/address-policy.js';
export { CALLBACK_REFUSED, createHostVetter, systemResolver } from './internal/target.js';
