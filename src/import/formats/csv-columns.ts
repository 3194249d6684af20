import { dict, type ReadonlyDict } from '../../platform/dict.js';
/** The review fields a CSV column can feed. */
export type CsvField =
  | 'id'
  | 'source'
  | 'rating'
  | 'title'
  | 'text'
  | 'date'
  | 'updated'
  | 'author'
  | 'authorFirst'
  | 'authorLast'
  | 'response'
  | 'responseDate'
  | 'url'
  | 'language'
  | 'department'
  | 'recommend'
  | 'staff';

/**
 * Header names accepted for each field, after normalising the header (lower case, camelCase
 * split, anything but letters and digits as `_`: "Review Date" and "reviewDate" are both
 * `review_date`). For each field the first alias present wins. docs/importing.md lists this map.
 */
export const CSV_ALIASES: Readonly<Record<CsvField, readonly string[]>> = {
  id: ['id', 'review_id', 'source_review_id', 'external_id', 'review_key'],
  source: ['source', 'site', 'source_name', 'review_source', 'review_site', 'platform', 'channel'],
  rating: [
    'rating',
    'stars',
    'star_rating',
    'score',
    'review_rating',
    'rating_value',
    'overall_rating',
  ],
  title: ['title', 'review_title', 'headline', 'subject'],
  text: [
    'text',
    'review',
    'comment',
    'comments',
    'body',
    'review_text',
    'review_body',
    'review_comment',
    'content',
    'feedback',
  ],
  date: [
    'date',
    'created',
    'created_at',
    'review_date',
    'date_published',
    'published',
    'published_at',
    'posted',
    'posted_at',
    'posted_date',
    'create_time',
    'date_created',
    'timestamp',
  ],
  updated: [
    'updated',
    'updated_at',
    'date_modified',
    'modified',
    'modified_at',
    'last_updated',
    'update_time',
    'edited_at',
  ],
  author: [
    'author',
    'reviewer',
    'name',
    'author_name',
    'reviewer_name',
    'customer',
    'customer_name',
    'user',
    'username',
    'user_name',
    'display_name',
  ],
  authorFirst: ['reviewer_first_name', 'first_name', 'firstname'],
  authorLast: ['reviewer_last_name', 'last_name', 'lastname'],
  response: [
    'response',
    'reply',
    'owner_response',
    'business_response',
    'response_text',
    'reply_text',
    'company_reply',
    'dealer_response',
    'owner_reply',
    'responses',
  ],
  responseDate: [
    'response_date',
    'reply_date',
    'responded_at',
    'response_time',
    'replied_at',
    'response_updated_at',
  ],
  url: ['url', 'review_url', 'link', 'permalink', 'source_url', 'review_link'],
  language: ['language', 'lang', 'locale', 'in_language'],
  department: ['department', 'dept', 'visit_type'],
  recommend: ['recommend', 'recommends', 'recommended', 'would_recommend', 'recommends_dealer'],
  staff: [
    'employees',
    'employee',
    'employee_names',
    'staff',
    'technician',
    'technicians',
    'salesperson',
  ],
};

/** Normalises a header for the alias map: `Review Date`, `reviewDate`, `review-date` → `review_date`. */
export function normalizeHeader(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Which column index feeds each field, and the headers nothing reads. */
export interface ColumnMap {
  columns: Partial<Record<CsvField, number>>;
  ignored: string[];
}

/** Resolves the header row against the alias map. */
export function mapColumns(headers: readonly string[]): ColumnMap {
  const normalized = headers.map(normalizeHeader);
  const used = new Set<number>();
  const columns: Partial<Record<CsvField, number>> = {};
  for (const [field, aliases] of Object.entries(CSV_ALIASES) as [CsvField, readonly string[]][]) {
    for (const alias of aliases) {
      const i = normalized.findIndex((h, idx) => h === alias && !used.has(idx));
      if (i !== -1) {
        columns[field] = i;
        used.add(i);
        break;
      }
    }
  }
  const ignored = headers.filter((h, i) => !used.has(i) && h.trim() !== '');
  return { columns, ignored };
}

/** Source names as reputation tools write them, to the service's source ids. */
const SOURCE_NAMES: ReadonlyDict<string> = dict({
  google: 'google',
  googlemybusiness: 'google',
  googlebusinessprofile: 'google',
  googlebusiness: 'google',
  googlemaps: 'google',
  gmb: 'google',
  gbp: 'google',
  dealerrater: 'dealerrater',
  dealerratercom: 'dealerrater',
  yelp: 'yelp',
  trustpilot: 'trustpilot',
  facebook: 'facebook',
  fb: 'facebook',
  carscom: 'cars-com',
  cars: 'cars-com',
  firstparty: 'first-party',
  website: 'first-party',
  survey: 'first-party',
  direct: 'first-party',
  other: 'other',
});

/**
 * The source id for a source name (`Google My Business` → `google`, `Cars.com` → `cars-com`),
 * with `known: false` for a name the service has no id for (it becomes `other`).
 */
export function mapSourceName(name: string): { source: string; known: boolean } {
  const key = name.toLowerCase().replace(/[^a-z0-9]+/g, '');
  const source = SOURCE_NAMES[key];
  return source ? { source, known: true } : { source: 'other', known: false };
}
