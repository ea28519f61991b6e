const MONTHS_PAID_PER_YEAR = 10;
let period = 'month';
const periodButtons = [...document.querySelectorAll('[data-period]')];
function render() {
  for (const p of document.querySelectorAll('.price')) {
    const monthly = Number(p.dataset.monthly);
    p.textContent = period === 'month' ? '£' + monthly + ' / month' : '£' + monthly * MONTHS_PAID_PER_YEAR + ' / year';
  }
  for (const b of periodButtons) b.setAttribute('aria-pressed', String(b.dataset.period === period));
}
for (const b of periodButtons) b.addEventListener('click', () => { period = b.dataset.period; render(); });
for (const b of document.querySelectorAll('.choose')) {
  b.addEventListener('click', () => {
    document.getElementById('choice').textContent = 'You chose ' + b.dataset.plan + ' (' + (period === 'month' ? 'monthly' : 'yearly') + ')';
  });
}
render();
