const KEY = 'profile-settings';
const fields = { name: document.getElementById('name'), email: document.getElementById('email'), bio: document.getElementById('bio'), digest: document.getElementById('digest') };
const bioCount = document.getElementById('bio-count');
const saved = document.getElementById('saved');
function updateCount() { bioCount.textContent = fields.bio.value.length + ' / 160'; }
function load() {
  let s = null;
  try { s = JSON.parse(localStorage.getItem(KEY) || 'null'); } catch { s = null; }
  if (!s) return;
  fields.name.value = s.name || '';
  fields.email.value = s.email || '';
  fields.bio.value = s.bio || '';
  fields.digest.checked = Boolean(s.digest);
}
function validate() {
  const nameError = fields.name.value.trim().length < 3 ? 'Name must be at least 3 characters' : '';
  const emailError = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(fields.email.value.trim()) ? '' : 'Enter a valid email address';
  document.getElementById('name-error').textContent = nameError;
  document.getElementById('email-error').textContent = emailError;
  return !nameError && !emailError;
}
fields.bio.addEventListener('input', updateCount);
document.getElementById('settings').addEventListener('submit', (event) => {
  event.preventDefault();
  saved.textContent = '';
  if (!validate()) return;
  localStorage.setItem(KEY, JSON.stringify({ name: fields.name.value.trim(), email: fields.email.value.trim(), bio: fields.bio.value, digest: fields.digest.checked }));
  saved.textContent = 'Settings saved';
});
load();
updateCount();
