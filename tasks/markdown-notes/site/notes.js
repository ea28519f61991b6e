const KEY = 'jotter.notes';
const input = document.getElementById('note');
const preview = document.getElementById('preview');
let notes = [];
try { notes = JSON.parse(localStorage.getItem(KEY) || '[]'); } catch { notes = []; }
const save = () => localStorage.setItem(KEY, JSON.stringify(notes));
const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
// Only the two rules the page promises: "# " headings and **bold**; everything else stays plain text.
function render(text) {
  return text.split('\n').map((line) => {
    const safe = escape(line).replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>');
    return line.startsWith('# ') ? '<h3>' + safe.slice(2) + '</h3>' : safe ? '<p>' + safe + '</p>' : '';
  }).join('');
}
const titleOf = (text) => text.split('\n')[0].replace(/^#\s+/, '').replace(/\*\*/g, '').trim();
function list() {
  const ul = document.getElementById('notes');
  ul.replaceChildren();
  notes.forEach((note, i) => {
    const li = document.createElement('li');
    const span = document.createElement('span');
    span.textContent = titleOf(note);
    const del = document.createElement('button');
    del.type = 'button';
    del.textContent = 'Delete';
    del.addEventListener('click', () => { notes.splice(i, 1); save(); list(); });
    li.append(span, del);
    ul.append(li);
  });
  document.getElementById('count').textContent = notes.length + (notes.length === 1 ? ' note' : ' notes');
}
input.addEventListener('input', () => { preview.innerHTML = render(input.value); });
document.getElementById('save').addEventListener('click', () => {
  if (!input.value.trim()) return;
  notes.push(input.value);
  save();
  input.value = '';
  preview.innerHTML = '';
  list();
});
list();
