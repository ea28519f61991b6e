const STORAGE_KEY = 'pocket-ledger.expenses';
const form = document.getElementById('expense-form');
const description = document.getElementById('description');
const amount = document.getElementById('amount');
const category = document.getElementById('category');
const error = document.getElementById('form-error');
const filter = document.getElementById('filter');
const rows = document.getElementById('rows');
const total = document.getElementById('total');
const empty = document.getElementById('empty');
const money = (cents) => '$' + (cents / 100).toFixed(2);

// Amounts are kept in whole cents so that 0.1 + 0.2 style float errors never reach the total.
let expenses = load();

function load() {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

function save() {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(expenses));
}

function render() {
  const shown = expenses.filter((e) => filter.value === 'All' || e.category === filter.value);
  rows.replaceChildren(
    ...shown.map((e) => {
      const tr = document.createElement('tr');
      const cells = [e.description, e.category, money(e.cents)].map((text) => {
        const td = document.createElement('td');
        td.textContent = text;
        return td;
      });
      cells[2].classList.add('num');
      if (e.cents > 10000) cells[2].classList.add('large');
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = 'Remove';
      remove.setAttribute('aria-label', `Remove ${e.description}`);
      remove.addEventListener('click', () => {
        expenses = expenses.filter((x) => x !== e);
        save();
        render();
      });
      const action = document.createElement('td');
      action.append(remove);
      tr.append(...cells, action);
      return tr;
    }),
  );
  total.textContent = 'Total: ' + money(shown.reduce((sum, e) => sum + e.cents, 0));
  empty.hidden = shown.length > 0;
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const cents = Math.round(parseFloat(amount.value) * 100);
  if (!description.value.trim() || !Number.isFinite(cents) || cents <= 0) {
    error.textContent = 'Enter a description and an amount above zero.';
    return;
  }
  error.textContent = '';
  expenses.push({ id: Date.now() + Math.random(), description: description.value.trim(), category: category.value, cents });
  save();
  form.reset();
  description.focus();
  render();
});
filter.addEventListener('change', render);
render();
