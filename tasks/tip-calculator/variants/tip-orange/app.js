const bill = document.getElementById('bill');
const people = document.getElementById('people');
const tipButtons = [...document.querySelectorAll('.tip')];
const error = document.getElementById('error');
const results = document.getElementById('results');
const money = (n) => '$' + n.toFixed(2);
let tipPercent = 15;

function update() {
  const amount = Math.max(0, parseFloat(bill.value) || 0);
  const count = parseInt(people.value, 10);
  // An empty or zero head count would divide by zero; tell the user instead of showing Infinity.
  const valid = Number.isFinite(count) && count >= 1;
  error.hidden = valid;
  results.hidden = !valid;
  if (!valid) return;
  const tip = (amount * tipPercent) / 100;
  document.getElementById('tip-each').textContent = money(tip / count);
  document.getElementById('total-each').textContent = money((amount + tip) / count);
}

for (const button of tipButtons) {
  button.addEventListener('click', () => {
    tipPercent = Number(button.dataset.tip);
    for (const b of tipButtons) b.setAttribute('aria-pressed', String(b === button));
    update();
  });
}
bill.addEventListener('input', update);
people.addEventListener('input', update);
document.getElementById('reset').addEventListener('click', () => {
  bill.value = '';
  people.value = '1';
  update();
});
update();
