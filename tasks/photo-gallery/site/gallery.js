const thumbs = [...document.querySelectorAll('.thumb img')];
const box = document.getElementById('lightbox');
const large = document.getElementById('large');
let current = 0;
function show(i) {
  current = (i + thumbs.length) % thumbs.length;
  const img = thumbs[current];
  large.src = img.getAttribute('src');
  large.alt = img.alt;
  document.getElementById('caption').textContent = img.alt;
  document.getElementById('position').textContent = (current + 1) + ' / ' + thumbs.length;
  box.hidden = false;
}
function close() { box.hidden = true; }
document.querySelectorAll('.thumb').forEach((b) => b.addEventListener('click', () => show(Number(b.dataset.index))));
document.getElementById('next').addEventListener('click', () => show(current + 1));
document.getElementById('prev').addEventListener('click', () => show(current - 1));
document.getElementById('close').addEventListener('click', close);
document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && !box.hidden) close(); });
