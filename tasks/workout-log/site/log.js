const KEY = 'move-more.log';
let log = [];
try { log = JSON.parse(localStorage.getItem(KEY) || '[]'); } catch { log = []; }
const save = () => localStorage.setItem(KEY, JSON.stringify(log));
const error = document.getElementById('error');
function render() {
  const rows = document.getElementById('rows');
  rows.replaceChildren();
  for (const entry of log) {
    const tr = document.createElement('tr');
    for (const value of [entry.activity, String(entry.minutes)]) {
      const td = document.createElement('td');
      td.textContent = value;
      tr.append(td);
    }
    rows.append(tr);
  }
  const total = log.reduce((sum, e) => sum + e.minutes, 0);
  document.getElementById('total').textContent = 'Total: ' + total + (total === 1 ? ' minute' : ' minutes');
}
document.getElementById('add').addEventListener('submit', (event) => {
  event.preventDefault();
  const minutes = Number(document.getElementById('minutes').value);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 300) { error.textContent = 'Minutes must be between 1 and 300'; return; }
  error.textContent = '';
  log.push({ activity: document.getElementById('activity').value, minutes });
  save();
  document.getElementById('minutes').value = '';
  render();
});
document.getElementById('clear').addEventListener('click', () => { log = []; save(); render(); });
render();
