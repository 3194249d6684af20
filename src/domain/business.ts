import { z } from 'zod';
import { isTimeZone } from './dates.js';

/** A lower-case slug: letters, digits and single dashes (`oil-change`, `mike-torres`). */
export const Slug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a lower-case slug (a-z, 0-9, dashes)');

export const STAFF_ROLES = [
  'technician',
  'service-advisor',
  'sales',
  'finance',
  'parts',
  'manager',
  'other',
] as const;
export const StaffRole = z.enum(STAFF_ROLES);
export type StaffRole = z.infer<typeof StaffRole>;

export const StaffMember = z.object({
  id: Slug,
  name: z.string().trim().min(2).max(120),
  role: StaffRole,
  active: z.boolean().default(true),
  /** Other names customers use for this person (nicknames); matched like the first name. */
  aliases: z.array(z.string().trim().min(2).max(60)).max(10).default([]),
});
export type StaffMember = z.infer<typeof StaffMember>;

export const Service = z.object({
  id: Slug,
  name: z.string().trim().min(1).max(120),
  /** Words and phrases customers use for this service, matched case-insensitively as whole words. */
  synonyms: z.array(z.string().trim().min(2).max(80)).max(50).default([]),
});
export type Service = z.infer<typeof Service>;

export const PostalAddress = z.object({
  streetAddress: z.string().max(200),
  addressLocality: z.string().max(100),
  addressRegion: z.string().max(100),
  postalCode: z.string().max(20),
  addressCountry: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code'),
});

export const Business = z.object({
  id: Slug,
  name: z.string().trim().min(1).max(200),
  legalName: z.string().max(200).nullable().default(null),
  url: z.url({ protocol: /^https?$/ }),
  telephone: z.string().max(40).nullable().default(null),
  address: PostalAddress,
  geo: z
    .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
    .nullable()
    .default(null),
  timeZone: z.string().refine(isTimeZone, 'must be an IANA time zone name'),
  brands: z.array(z.string().max(60)).max(50).default([]),
  sameAs: z.array(z.url()).max(20).default([]),
  departments: z
    .array(
      z.object({ id: Slug, name: z.string().max(120), telephone: z.string().max(40).optional() }),
    )
    .max(20)
    .default([]),
  staff: z.array(StaffMember).max(2000).default([]),
  services: z.array(Service).max(500).default([]),
});
export type Business = z.infer<typeof Business>;
/** The business record as an import file may write it (defaults not yet applied). */
export type BusinessInput = z.input<typeof Business>;
