import { normalizeName } from '../../reviews/search-index.js';
import { closestNames } from '../internal/closest.js';
import type { Snapshot } from '../../snapshot/types.js';
import type { ToolContext } from './types.js';

/**
 * "Did you mean": the tool error of a search (or a prompt) naming a staff member or a service the
 * data does not know, with the closest names.
 */

/** Normalised for "did you mean": lower case, no accents, letters and digits only. */
function folded(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

interface ServiceNames {
  /** Each id, name and synonym folded, with the id it belongs to (the first wins). */
  owner: Map<string, string>;
  /** The same without spaces ("a c" and "ac" for "A/C"). */
  joined: Map<string, string>;
}

const serviceNames = new WeakMap<object, ServiceNames>();

/** The names of the catalogue folded once per data version (500 services may have 50 each). */
function namesOf(
  services: readonly { id: string; name: string; synonyms: readonly string[] }[],
): ServiceNames {
  let names = serviceNames.get(services);
  if (!names) {
    names = { owner: new Map(), joined: new Map() };
    for (const s of services) {
      for (const n of [s.id, s.name, ...s.synonyms]) {
        const f = folded(n);
        if (!names.owner.has(f)) names.owner.set(f, s.id);
        if (!names.joined.has(f.replace(/ /g, ''))) names.joined.set(f.replace(/ /g, ''), s.id);
      }
    }
    serviceNames.set(services, names);
  }
  return names;
}

/** The ids of the services whose id, name or a synonym is closest to `wanted`, best first. */
function closestServices(
  wanted: string,
  services: readonly { id: string; name: string; synonyms: readonly string[] }[],
): string[] {
  const w = folded(wanted);
  const { owner, joined } = namesOf(services);
  // A name or synonym that is the same once folded ("a/c", "AC", "Brake service") is the answer.
  const exact = owner.get(w) ?? joined.get(w.replace(/ /g, ''));
  if (exact) return [exact];
  const near = closestNames(w, [...owner.keys()], 12).map((n) => owner.get(n)!);
  return [...new Set(near)].slice(0, 3);
}

/** The tool error (or a prompt's) for a staff name no one has, with the closest names. */
export function unknownStaffText(snapshot: Snapshot, staff: string): string {
  const near = closestNames(
    staff,
    snapshot.views.staff.map((s) => s.name),
  );
  return `No staff member is called "${staff.slice(0, 120)}".${near.length ? ` Closest names: ${near.join(', ')}.` : ''} list_staff lists everyone.`;
}

/** The tool error (or a prompt's) for a service id the catalogue lacks, with the closest ids. */
export function unknownServiceText(snapshot: Snapshot, service: string): string {
  const services = snapshot.views.services;
  const near = closestServices(service, services);
  const named = near.map((id) => `${id} (${services.find((s) => s.id === id)?.name ?? id})`);
  return `No service has the id "${service.slice(0, 64)}".${near.length ? ` Closest ids: ${named.join(', ')}.` : ''} list_services lists them.`;
}

/** Staff names and service ids the data knows, for "did you mean". */
export function unknownName(ctx: ToolContext, filters: Record<string, unknown>): string | null {
  const { snapshot } = ctx;
  const { index, views } = snapshot;
  const staff = filters.mentions_technician;
  if (typeof staff === 'string') {
    const key = normalizeName(staff);
    if (index.staff(key) === undefined && index.ambiguous(key) === undefined)
      return unknownStaffText(snapshot, staff);
  }
  const service = filters.mentions_service;
  if (typeof service === 'string') {
    if (!views.services.some((s) => s.id === service) && index.service(service).length === 0)
      return unknownServiceText(snapshot, service);
  }
  return null;
}
