import type { BusinessInput } from '../../src/domain/business.js';
import { seededRandom } from '../../src/domain/random.js';
import type { ReviewSourceInput } from '../../src/domain/review.js';

/** A small, fixed dealership profile for tests. */
export function testBusiness(): BusinessInput {
  return {
    id: 'test-motors',
    name: 'Test Motors',
    url: 'https://www.test-motors.example.com/',
    address: {
      streetAddress: '1 Main St',
      addressLocality: 'Springfield',
      addressRegion: 'IL',
      postalCode: '62701',
      addressCountry: 'US',
    },
    timeZone: 'America/Chicago',
    staff: [
      { id: 'mike-torres', name: 'Mike Torres', role: 'technician' },
      { id: 'mike-chen', name: 'Mike Chen', role: 'service-advisor' },
      { id: 'sarah-lopez', name: 'Sarah Lopez', role: 'technician' },
      { id: 'dave-kim', name: 'Dave Kim', role: 'sales' },
    ],
    services: [
      { id: 'oil-change', name: 'Oil change', synonyms: ['lube', 'oil and filter'] },
      { id: 'brakes', name: 'Brake service', synonyms: ['brakes', 'brake pads', 'rotors'] },
      { id: 'tire-rotation', name: 'Tire rotation', synonyms: ['rotation', 'rotate the tires'] },
    ],
  };
}

/** Deterministic pseudo-random numbers (mulberry32). */
export const rng = seededRandom;

const BODIES = [
  'Mike Torres did a great job on my brakes. Quick and friendly.',
  "Sarah's work on the oil change was fast, waiting room was clean.",
  'Waited three hours for a simple lube. Not happy.',
  'Dave Kim sold me my truck, no pressure at all.',
  'The rotation was free with my oil and filter service. Nice touch!',
  'Prices were higher than the quote. Mike Chen explained everything though.',
  'Excelente servicio, muy rápido. Gracias!',
  'Brake pads replaced, rotors resurfaced, car drives like new.',
  null,
];

/** `count` reviews spread over 2023-2025, one every ~day, with a fixed seed. */
export function testReviews(count: number, seed = 1): ReviewSourceInput[] {
  const random = rng(seed);
  const out: ReviewSourceInput[] = [];
  const start = Date.parse('2023-01-01T15:00:00Z');
  for (let i = 0; i < count; i++) {
    const when = new Date(
      start + i * 86_400_000 * (1000 / Math.max(count, 1)) + Math.floor(random() * 3600_000),
    );
    const body = BODIES[i % BODIES.length]!;
    const rating = [5, 5, 1, 5, 4, 3, 5, 5, 2][i % 9]!;
    out.push({
      source: i % 5 === 0 ? 'dealerrater' : 'google',
      sourceReviewId: `r${seed}-${i}`,
      reviewRating: { ratingValue: rating },
      name: i % 5 === 0 ? `Visit number ${i}` : null,
      reviewBody: body,
      author: { name: `Customer ${i}` },
      datePublished: when.toISOString(),
      department: i % 5 === 0 ? 'service' : null,
      taggedStaff: i % 5 === 0 ? [{ name: 'Sarah Lopez', rating: 5 }] : [],
      ownerResponse: i % 3 === 0 ? { text: 'Thank you for your feedback!' } : null,
    });
  }
  return out;
}
