/**
 * Vehicles customers write about: the store's own makes (most service visits and new sales) and
 * the used cars and trade-ins of every make that pass through a real lot.
 */

/** A model, its make and the kind of vehicle people call it ("my truck", "the SUV"). */
export interface VehicleModel {
  readonly make: string;
  readonly model: string;
  readonly kind: 'truck' | 'SUV' | 'car' | 'van';
  /** First and last model years sold. */
  readonly years: readonly [number, number];
  /** Relative frequency among the store's vehicles. */
  readonly weight: number;
}

const m = (
  make: string,
  model: string,
  kind: VehicleModel['kind'],
  years: [number, number],
  weight: number,
): VehicleModel => ({ make, model, kind, years, weight });

/** The franchise makes: Chevrolet, Buick and GMC, trucks and SUVs first, as in a Southern store. */
export const FRANCHISE_MODELS: readonly VehicleModel[] = [
  m('Chevrolet', 'Silverado', 'truck', [2010, 2027], 12),
  m('Chevrolet', 'Silverado 2500HD', 'truck', [2012, 2027], 3),
  m('Chevrolet', 'Equinox', 'SUV', [2010, 2027], 10),
  m('Chevrolet', 'Traverse', 'SUV', [2012, 2027], 6),
  m('Chevrolet', 'Tahoe', 'SUV', [2010, 2027], 6),
  m('Chevrolet', 'Suburban', 'SUV', [2010, 2027], 2),
  m('Chevrolet', 'Malibu', 'car', [2010, 2025], 6),
  m('Chevrolet', 'Colorado', 'truck', [2015, 2027], 3),
  m('Chevrolet', 'Blazer', 'SUV', [2019, 2027], 3),
  m('Chevrolet', 'Trax', 'SUV', [2015, 2027], 4),
  m('Chevrolet', 'Trailblazer', 'SUV', [2021, 2027], 3),
  m('Chevrolet', 'Camaro', 'car', [2010, 2024], 1),
  m('Chevrolet', 'Corvette', 'car', [2014, 2027], 1),
  m('Chevrolet', 'Bolt', 'car', [2017, 2027], 1),
  m('Chevrolet', 'Equinox EV', 'SUV', [2024, 2027], 1),
  m('Chevrolet', 'Cruze', 'car', [2011, 2019], 2),
  m('Chevrolet', 'Impala', 'car', [2010, 2020], 1),
  m('Buick', 'Enclave', 'SUV', [2010, 2027], 3),
  m('Buick', 'Encore', 'SUV', [2013, 2022], 2),
  m('Buick', 'Encore GX', 'SUV', [2020, 2027], 2),
  m('Buick', 'Envista', 'SUV', [2024, 2027], 1),
  m('Buick', 'Envision', 'SUV', [2016, 2027], 1),
  m('GMC', 'Sierra', 'truck', [2010, 2027], 8),
  m('GMC', 'Sierra 2500HD', 'truck', [2012, 2027], 2),
  m('GMC', 'Acadia', 'SUV', [2010, 2027], 4),
  m('GMC', 'Terrain', 'SUV', [2010, 2027], 4),
  m('GMC', 'Yukon', 'SUV', [2010, 2027], 3),
  m('GMC', 'Canyon', 'truck', [2015, 2027], 2),
  m('GMC', 'Hummer EV', 'truck', [2022, 2027], 1),
];

/** Other makes, for used cars on the lot and for trade-ins. */
export const OTHER_MODELS: readonly VehicleModel[] = [
  m('Ford', 'F-150', 'truck', [2008, 2024], 6),
  m('Ford', 'Explorer', 'SUV', [2008, 2024], 3),
  m('Ford', 'Escape', 'SUV', [2008, 2024], 3),
  m('Toyota', 'Camry', 'car', [2008, 2024], 5),
  m('Toyota', 'RAV4', 'SUV', [2010, 2024], 4),
  m('Toyota', 'Tacoma', 'truck', [2008, 2024], 3),
  m('Honda', 'Accord', 'car', [2008, 2024], 4),
  m('Honda', 'Civic', 'car', [2008, 2024], 4),
  m('Honda', 'CR-V', 'SUV', [2008, 2024], 4),
  m('Honda', 'Odyssey', 'van', [2008, 2024], 2),
  m('Nissan', 'Altima', 'car', [2008, 2024], 5),
  m('Nissan', 'Rogue', 'SUV', [2010, 2024], 3),
  m('Jeep', 'Grand Cherokee', 'SUV', [2008, 2024], 3),
  m('Jeep', 'Wrangler', 'SUV', [2008, 2024], 2),
  m('Ram', '1500', 'truck', [2010, 2024], 3),
  m('Hyundai', 'Elantra', 'car', [2010, 2024], 3),
  m('Hyundai', 'Santa Fe', 'SUV', [2010, 2024], 2),
  m('Kia', 'Sorento', 'SUV', [2010, 2024], 2),
  m('Kia', 'Soul', 'car', [2010, 2024], 2),
  m('Dodge', 'Grand Caravan', 'van', [2008, 2020], 2),
  m('Subaru', 'Outback', 'SUV', [2010, 2024], 2),
  m('Volkswagen', 'Jetta', 'car', [2008, 2024], 1),
];

/** Colours salespeople "tracked down"; written the way buyers write them. */
export const COLORS = [
  'black',
  'white',
  'silver',
  'red',
  'blue',
  'gray',
  'summit white',
  'mosaic black',
  'cypress gray',
  'radiant red',
  'midnight blue',
  'sterling gray',
];
