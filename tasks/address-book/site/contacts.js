const KEY = 'contacts.people';
let people = [];
try { people = JSON.parse(localStorage.getItem(KEY) || '[]'); } catch { people = []; }
const save = () => localStorage.setItem(KEY, JSON.stringify(people));
const search = document.getElementById('search');
const error = document.getElementById('error');
function render() {
  const q = search.value.trim().toLowerCase();
  const list = document.getElementById('list');
  list.replaceChildren();
  const sorted = [...people].sort((a, b) => a.name.localeCompare(b.name));
  for (const p of sorted) {
    if (q && !p.name.toLowerCase().includes(q)) continue;
    const li = document.createElement('li');
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = p.name;
    const phone = document.createElement('span');
    phone.className = 'phone';
    phone.textContent = p.phone;
    const del = document.createElement('button');
    del.type = 'button';
    del.textContent = 'Delete';
    del.setAttribute('aria-label', 'Delete ' + p.name);
    del.addEventListener('click', () => { people = people.filter((x) => x !== p); save(); render(); });
    li.append(name, phone, del);
    list.append(li);
  }
}
document.getElementById('add').addEventListener('submit', (event) => {
  event.preventDefault();
  const name = document.getElementById('name').value.trim();
  const phone = document.getElementById('phone').value.trim();
  if (!name) { error.textContent = 'Name is required'; return; }
  if (!/^[0-9 +]+$/.test(phone)) { error.textContent = 'Phone may contain only digits, spaces and +'; return; }
  error.textContent = '';
  people.push({ name, phone });
  save();
  event.target.reset();
  render();
});
search.addEventListener('input', render);
render();
