const select = document.getElementById('department');
const cards = [...document.querySelectorAll('.person')];
function apply() {
  const want = select.value;
  let shown = 0;
  for (const card of cards) {
    card.hidden = want !== 'All' && card.dataset.department !== want;
    if (!card.hidden) shown++;
  }
  document.getElementById('count').textContent = shown + (shown === 1 ? ' person' : ' people');
}
select.addEventListener('change', apply);
apply();
