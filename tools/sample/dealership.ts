import type { BusinessInput } from '../../src/domain/business.js';
import { CATALOGUE } from './catalogue.js';
import { WINDOW } from './events.js';
import { ROSTER, isOnStaff } from './roster.js';

/** Fixed facts about the fictional store that reviews, ids and replies refer to. */
export const STORE = {
  name: 'Stonebridge Chevrolet Buick GMC',
  shortName: 'Stonebridge',
  /** Google Maps place id (the hex pair in Maps URLs), fictional. */
  mapsFeatureId: '0x89ac8b5d7e3f1a2b:0x4f8c2e6a9d1b3c57',
  mapsCid: '5732086109871126359',
  dealerRaterId: 48213,
  dealerRaterSlug: 'Stonebridge-Chevrolet-Buick-GMC',
  phone: {
    main: '(919) 555-0142',
    sales: '(919) 555-0143',
    service: '(919) 555-0144',
    parts: '(919) 555-0145',
    body: '(919) 555-0146',
  },
  email: 'care@stonebridge-gm.example.com',
  town: 'Larkfield',
  /** Places nearby that customers drive in from (real places around the fictional town). */
  nearby: [
    'Garner',
    'Fuquay-Varina',
    'Cary',
    'Sanford',
    'Clayton',
    'Apex',
    'Holly Springs',
    'Wake Forest',
    'Smithfield',
    'Durham',
    'Raleigh',
    'Benson',
    'Angier',
    'Dunn',
    'Wendell',
    'Knightdale',
  ],
} as const;

/**
 * The business record of the sample: a fictional Chevrolet, Buick and GMC store in North Carolina
 * (Eastern time, which has state inspections and a large Spanish-speaking community), with its
 * staff roster and service catalogue. Phone numbers are in the 555-01xx range reserved for
 * fiction and the web site is under example.com. Staff who left before the end of the window are
 * listed as inactive, as an operator's roster would show them.
 */
export function sampleBusiness(): BusinessInput {
  return {
    id: 'stonebridge-chevrolet-buick-gmc',
    name: STORE.name,
    legalName: 'Stonebridge Motor Company, LLC',
    url: 'https://stonebridge-gm.example.com/',
    telephone: '+19195550142',
    address: {
      streetAddress: '4180 Tryon Ridge Parkway',
      addressLocality: STORE.town,
      addressRegion: 'NC',
      postalCode: '27592',
      addressCountry: 'US',
    },
    geo: { latitude: 35.6512, longitude: -78.7391 },
    timeZone: 'America/New_York',
    brands: ['Chevrolet', 'Buick', 'GMC'],
    sameAs: [
      `https://www.google.com/maps?cid=${STORE.mapsCid}`,
      `https://www.dealerrater.com/dealer/${STORE.dealerRaterSlug}-review-${STORE.dealerRaterId}/`,
    ],
    departments: [
      { id: 'sales', name: 'Sales', telephone: '+19195550143' },
      { id: 'service', name: 'Service', telephone: '+19195550144' },
      { id: 'parts', name: 'Parts', telephone: '+19195550145' },
      { id: 'finance', name: 'Finance' },
      { id: 'body-shop', name: 'Collision Center', telephone: '+19195550146' },
    ],
    staff: ROSTER.map((e) => ({
      id: e.id,
      name: e.name,
      role: e.role,
      active: isOnStaff(e, WINDOW.end),
      aliases: [...e.aliases],
    })),
    services: CATALOGUE.map((s) => ({ id: s.id, name: s.name, synonyms: [...s.synonyms] })),
  };
}
