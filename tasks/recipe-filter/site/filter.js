const buttons = [...document.querySelectorAll('[data-filter]')];
const cards = [...document.querySelectorAll('.recipe')];
const count = document.getElementById('count');
const QUICK_LIMIT = 30;
const keep = {
  all: () => true,
  vegetarian: (c) => c.dataset.diet === 'vegetarian' || c.dataset.diet === 'vegan',
  vegan: (c) => c.dataset.diet === 'vegan',
  quick: (c) => Number(c.dataset.minutes) < QUICK_LIMIT,
};
function apply(filter) {
  let shown = 0;
  for (const card of cards) {
    card.hidden = !keep[filter](card);
    if (!card.hidden) shown++;
  }
  count.textContent = 'Showing ' + shown + (shown === 1 ? ' recipe' : ' recipes');
  for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.filter === filter));
}
for (const b of buttons) b.addEventListener('click', () => apply(b.dataset.filter));
