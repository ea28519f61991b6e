/** Pure conversions, kept apart from the page so they read as a table of formulas. */
export const KM_PER_MILE = 1.609344;

export const kmToMiles = (km) => km / KM_PER_MILE;
export const milesToKm = (mi) => mi * KM_PER_MILE;
export const celsiusToFahrenheit = (c) => (c * 9) / 5 + 32;
export const fahrenheitToCelsius = (f) => ((f - 32) * 5) / 9;

/** At most two decimals and no trailing zeros: 6.21, 212, 0. */
export const format = (x) => String(Number(x.toFixed(2)));

/** A number as a person types it (a comma as the decimal mark is fine), or null. */
export function parse(text) {
  const t = text.trim().replace(',', '.');
  if (t === '' || !/^-?\d*\.?\d+$/.test(t)) return null;
  return Number(t);
}
