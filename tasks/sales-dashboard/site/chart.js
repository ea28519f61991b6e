const DATA = {
  2024: [200, 310, 450, 280],
  2025: [260, 340, 390, 410],
};
const NS = 'http://www.w3.org/2000/svg';
const svg = document.getElementById('chart');
function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
function draw(year) {
  const values = DATA[year];
  const max = 500;
  svg.replaceChildren();
  values.forEach((v, i) => {
    const h = (v / max) * 180;
    const x = 30 + i * 95;
    svg.append(el('rect', { class: 'bar', x, y: 200 - h, width: 60, height: h }));
    svg.append(el('text', { x: x + 30, y: 195 - h, 'text-anchor': 'middle' }, String(v)));
    svg.append(el('text', { x: x + 30, y: 225, 'text-anchor': 'middle' }, 'Q' + (i + 1)));
  });
  const total = values.reduce((a, b) => a + b, 0);
  const best = values.indexOf(Math.max(...values)) + 1;
  document.getElementById('total').textContent = 'Total: ' + total.toLocaleString('en-GB') + ' crates';
  document.getElementById('best').textContent = 'Best quarter: Q' + best;
}
const select = document.getElementById('year');
select.addEventListener('change', () => draw(select.value));
draw(select.value);
