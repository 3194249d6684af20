/**
 * The service catalogue of the sample store, with the synonyms customers really use, and the
 * phrases the generator writes for each service. Every phrase contains one of the service's
 * synonyms (or its name), so what the text says and what the catalogue can find agree.
 */

/** A catalogue service plus the phrases used to write about it. */
export interface CatalogueEntry {
  readonly id: string;
  readonly name: string;
  readonly synonyms: readonly string[];
  /** Noun phrases with their determiner, for "came in for ___" ("an oil change"). */
  readonly np: readonly string[];
  /** Bare nouns, for "the ___ took an hour" ("oil change"). */
  readonly bare: readonly string[];
  /** Spanish noun phrases and the English a translation would give, for Spanish reviews. */
  readonly es: readonly (readonly [string, string])[];
  /** Relative frequency among service visits. */
  readonly weight: number;
  /** What the job typically costs in dollars (a quote falls in the range); 0 when covered. */
  readonly price: readonly [number, number];
}

const svc = (e: CatalogueEntry): CatalogueEntry => e;

/** About twenty services, ordered as the catalogue lists them. */
export const CATALOGUE: readonly CatalogueEntry[] = [
  svc({
    id: 'oil-change',
    name: 'Oil change',
    synonyms: [
      'oil change',
      'oil and filter',
      'oil service',
      'lube',
      'LOF',
      'synthetic oil',
      'cambio de aceite',
    ],
    np: [
      'an oil change',
      'an oil change',
      'an oil and filter change',
      'a synthetic oil change',
      'an LOF',
      'a lube, oil and filter',
      'an oil service',
    ],
    bare: ['oil change', 'oil change', 'LOF', 'oil service', 'synthetic oil change'],
    es: [
      ['un cambio de aceite', 'an oil change'],
      ['el cambio de aceite', 'the oil change'],
    ],
    weight: 30,
    price: [60, 140],
  }),
  svc({
    id: 'tire-rotation',
    name: 'Tire rotation',
    synonyms: ['tire rotation', 'rotation', 'rotate', 'rotated', 'rotación', 'rotacion'],
    np: ['a tire rotation', 'a tire rotation', 'a rotation'],
    bare: ['tire rotation', 'rotation'],
    es: [['la rotación de llantas', 'the tire rotation']],
    weight: 10,
    price: [25, 60],
  }),
  svc({
    id: 'tires',
    name: 'Tire sales and repair',
    synonyms: [
      'new tires',
      'tire replacement',
      'flat tire',
      'tire repair',
      'nail in my tire',
      'llantas nuevas',
      'neumáticos',
      'neumaticos',
    ],
    np: ['new tires', 'a set of new tires', 'a flat tire', 'a nail in my tire', 'a tire repair'],
    bare: ['new tires', 'tire repair', 'tire replacement'],
    es: [
      ['llantas nuevas', 'new tires'],
      ['neumáticos nuevos', 'new tires'],
    ],
    weight: 6,
    price: [450, 1300],
  }),
  svc({
    id: 'brakes',
    name: 'Brake service',
    synonyms: ['brakes', 'brake', 'brake pads', 'brake job', 'rotors', 'pads and rotors', 'frenos'],
    np: [
      'new brakes',
      'front brakes',
      'a brake job',
      'brake pads',
      'pads and rotors',
      'rear brakes and rotors',
    ],
    bare: ['brake job', 'brakes', 'brake pads', 'rotors'],
    es: [
      ['los frenos', 'the brakes'],
      ['frenos nuevos', 'new brakes'],
    ],
    weight: 9,
    price: [320, 950],
  }),
  svc({
    id: 'alignment',
    name: 'Wheel alignment',
    synonyms: ['alignment', 'aligned', 'wheel alignment', 'alineación', 'alineacion'],
    np: ['an alignment', 'a front end alignment', 'a wheel alignment'],
    bare: ['alignment', 'wheel alignment'],
    es: [
      ['una alineación', 'an alignment'],
      ['la alineacion', 'the alignment'],
    ],
    weight: 4,
    price: [110, 220],
  }),
  svc({
    id: 'battery',
    name: 'Battery',
    synonyms: ['battery', 'new battery', 'dead battery', 'batería', 'bateria'],
    np: ['a new battery', 'a dead battery', 'a battery replacement'],
    bare: ['battery', 'new battery', 'battery replacement'],
    es: [
      ['una batería nueva', 'a new battery'],
      ['la bateria', 'the battery'],
    ],
    weight: 5,
    price: [180, 340],
  }),
  svc({
    id: 'state-inspection',
    name: 'NC state inspection',
    synonyms: [
      'state inspection',
      'inspection',
      'inspected',
      'emissions inspection',
      'emissions test',
      'inspección',
      'inspeccion',
    ],
    np: [
      'my state inspection',
      'a state inspection',
      'an inspection',
      'my emissions inspection',
      'the yearly inspection',
    ],
    bare: ['inspection', 'state inspection', 'emissions inspection'],
    es: [
      ['la inspección', 'the inspection'],
      ['la inspeccion del estado', 'the state inspection'],
    ],
    weight: 6,
    price: [30, 60],
  }),
  svc({
    id: 'recall',
    name: 'Recall repair',
    synonyms: ['recall', 'safety recall', 'recall work', 'recall notice'],
    np: ['a recall', 'the recall', 'a safety recall', 'recall work', 'the engine recall'],
    bare: ['recall', 'recall repair', 'recall work'],
    es: [
      ['el recall', 'the recall'],
      ['un recall', 'a recall'],
    ],
    weight: 5,
    price: [0, 0],
  }),
  svc({
    id: 'warranty',
    name: 'Warranty repair',
    synonyms: [
      'warranty',
      'warranty work',
      'warranty repair',
      'under warranty',
      'garantía',
      'garantia',
    ],
    np: ['warranty work', 'a warranty repair', 'a warranty claim', 'a repair under warranty'],
    bare: ['warranty repair', 'warranty work', 'warranty claim'],
    es: [
      ['una reparación de garantía', 'a warranty repair'],
      ['la garantia', 'the warranty'],
    ],
    weight: 6,
    price: [0, 0],
  }),
  svc({
    id: 'transmission',
    name: 'Transmission service',
    synonyms: [
      'transmission',
      'transmission fluid',
      'transmission flush',
      'trans fluid',
      'transmisión',
      'transmision',
    ],
    np: [
      'a transmission flush',
      'a transmission problem',
      'a transmission fluid change',
      'a slipping transmission',
    ],
    bare: ['transmission flush', 'transmission repair', 'transmission'],
    es: [
      ['la transmisión', 'the transmission'],
      ['la transmision', 'the transmission'],
    ],
    weight: 3,
    price: [250, 3800],
  }),
  svc({
    id: 'air-conditioning',
    name: 'A/C service',
    synonyms: ['A/C', 'AC', 'air conditioning', 'air conditioner', 'freon', 'aire acondicionado'],
    np: [
      'an A/C repair',
      'an AC recharge',
      'an air conditioning check',
      'an A/C check',
      'an air conditioner repair',
    ],
    bare: ['A/C', 'AC', 'air conditioning'],
    es: [['el aire acondicionado', 'the air conditioning']],
    weight: 5,
    price: [180, 1400],
  }),
  svc({
    id: 'detailing',
    name: 'Detailing',
    synonyms: [
      'detail',
      'detailing',
      'full detail',
      'interior detail',
      'ceramic coating',
      'lavado completo',
    ],
    np: ['a full detail', 'an interior detail', 'a detailing package', 'a ceramic coating'],
    bare: ['detail', 'detailing', 'ceramic coating'],
    es: [['un lavado completo', 'a full detail']],
    weight: 2,
    price: [150, 900],
  }),
  svc({
    id: 'diagnostics',
    name: 'Diagnostics',
    synonyms: [
      'diagnostic',
      'diagnostics',
      'diagnosis',
      'diagnose',
      'diagnosed',
      'check engine light',
      'check engine',
      'engine light',
      'diagnóstico',
      'diagnostico',
    ],
    np: [
      'a diagnostic on my check engine light',
      'a check engine light diagnosis',
      'a diagnostic',
      'a diagnosis on a noise',
      'a diagnostic on an engine light',
    ],
    bare: ['diagnostic', 'diagnosis', 'check engine light'],
    es: [
      ['la luz de check engine', 'the check engine light'],
      ['un diagnóstico', 'a diagnosis'],
    ],
    weight: 8,
    price: [150, 1200],
  }),
  svc({
    id: 'coolant',
    name: 'Coolant flush',
    synonyms: ['coolant', 'coolant flush', 'radiator', 'antifreeze', 'anticongelante'],
    np: ['a coolant flush', 'a coolant leak', 'a radiator leak', 'a leaking radiator'],
    bare: ['coolant flush', 'radiator', 'coolant leak'],
    es: [['el cambio de anticongelante', 'the antifreeze change']],
    weight: 2,
    price: [160, 900],
  }),
  svc({
    id: 'filters-wipers',
    name: 'Filters and wipers',
    synonyms: [
      'air filter',
      'cabin filter',
      'cabin air filter',
      'engine air filter',
      'wiper blades',
      'wipers',
    ],
    np: ['a cabin air filter', 'new wiper blades', 'an engine air filter', 'a cabin filter'],
    bare: ['cabin filter', 'air filter', 'wiper blades'],
    es: [],
    weight: 2,
    price: [40, 120],
  }),
  svc({
    id: 'tune-up',
    name: 'Tune-up',
    synonyms: ['tune-up', 'tune up', 'spark plugs', 'afinación', 'afinacion'],
    np: ['a tune-up', 'new spark plugs', 'a tune up'],
    bare: ['tune-up', 'spark plugs'],
    es: [
      ['una afinación', 'a tune-up'],
      ['una afinacion', 'a tune-up'],
    ],
    weight: 2,
    price: [250, 600],
  }),
  svc({
    id: 'scheduled-maintenance',
    name: 'Scheduled maintenance',
    synonyms: [
      'scheduled maintenance',
      'maintenance',
      'factory maintenance',
      '30k service',
      '60k service',
      '90k service',
      'mantenimiento',
    ],
    np: [
      'my 30k service',
      'the 60k service',
      'scheduled maintenance',
      'the 90k service',
      'factory maintenance',
    ],
    bare: ['scheduled maintenance', 'maintenance', '60k service'],
    es: [
      ['el mantenimiento', 'the maintenance'],
      ['el servicio de mantenimiento', 'the maintenance service'],
    ],
    weight: 5,
    price: [300, 900],
  }),
  svc({
    id: 'body-repair',
    name: 'Collision and body repair',
    synonyms: [
      'body shop',
      'collision',
      'collision repair',
      'bodywork',
      'body work',
      'dent',
      'bumper',
      'paint job',
      'hojalatería',
      'hojalateria',
    ],
    np: [
      'some body work',
      'collision repair',
      'a dent in my door',
      'a rear bumper',
      'a bumper repair',
    ],
    bare: ['body work', 'collision repair', 'paint job'],
    es: [
      ['la hojalatería', 'the body work'],
      ['hojalateria y pintura', 'body work and paint'],
    ],
    weight: 0,
    price: [900, 4500],
  }),
  svc({
    id: 'key-fob',
    name: 'Keys and key fobs',
    synonyms: ['key fob', 'key fobs', 'fob', 'spare key', 'key programming'],
    np: ['a new key fob', 'a spare key', 'key programming', 'a replacement key fob'],
    bare: ['key fob', 'spare key', 'key programming'],
    es: [],
    weight: 2,
    price: [180, 450],
  }),
  svc({
    id: 'software-update',
    name: 'Software update',
    synonyms: ['software update', 'reflash', 'reprogram', 'reprogrammed', 'infotainment'],
    np: ['a software update', 'an infotainment problem', 'a reflash'],
    bare: ['software update', 'infotainment screen', 'reflash'],
    es: [],
    weight: 2,
    price: [0, 250],
  }),
  svc({
    id: 'parts-counter',
    name: 'Parts counter',
    synonyms: ['parts counter', 'parts department', 'parts desk', 'OEM parts', 'refacciones'],
    np: ['the parts counter', 'the parts department', 'the parts desk'],
    bare: ['parts counter', 'parts department', 'parts desk'],
    es: [['el departamento de refacciones', 'the parts department']],
    weight: 0,
    price: [40, 600],
  }),
];

const BY_ID = new Map(CATALOGUE.map((s) => [s.id, s]));

/** A catalogue entry by id; throws for an unknown id, which is a bug in the generator. */
export function serviceById(id: string): CatalogueEntry {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`unknown service ${id}`);
  return found;
}
