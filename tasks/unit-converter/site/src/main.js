import { celsiusToFahrenheit, fahrenheitToCelsius, format, kmToMiles, milesToKm, parse } from './convert.js';

const $ = (id) => document.getElementById(id);
const error = $('error');
const PAIRS = [
  ['km', 'mi', kmToMiles],
  ['mi', 'km', milesToKm],
  ['c', 'f', celsiusToFahrenheit],
  ['f', 'c', fahrenheitToCelsius],
];

for (const [from, to, fn] of PAIRS) {
  $(from).addEventListener('input', () => {
    const text = $(from).value;
    if (text.trim() === '') { $(to).value = ''; error.textContent = ''; return; }
    const value = parse(text);
    if (value === null) { error.textContent = 'Enter a number'; $(to).value = ''; return; }
    error.textContent = '';
    $(to).value = format(fn(value));
  });
}

$('clear').addEventListener('click', () => {
  for (const id of ['km', 'mi', 'c', 'f']) $(id).value = '';
  error.textContent = '';
});
