const STORAGE_KEY = 'shelf-life.books';
const form = document.getElementById('add-form');
const titleInput = document.getElementById('title');
const authorInput = document.getElementById('author');
const error = document.getElementById('form-error');
const list = document.getElementById('books');
const counter = document.getElementById('counter');
const empty = document.getElementById('empty');
const template = document.getElementById('book-template');
const filterButtons = [...document.querySelectorAll('[data-filter]')];

let books = load();
let filter = 'all';

function load() {
  // A corrupt or foreign value under our key must not brick the page; start empty instead.
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

function save() {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(books));
}

function render() {
  list.replaceChildren();
  for (const book of books) {
    const item = template.content.firstElementChild.cloneNode(true);
    item.querySelector('.title').textContent = book.title;
    item.querySelector('.author').textContent = book.author ? `by ${book.author}` : '';
    const box = item.querySelector('input');
    box.checked = book.read;
    box.setAttribute('aria-label', `Read: ${book.title}`);
    item.classList.toggle('is-read', book.read);
    item.hidden = (filter === 'read' && !book.read) || (filter === 'unread' && book.read);
    box.addEventListener('change', () => {
      book.read = box.checked;
      render();
    });
    const del = item.querySelector('.delete');
    del.setAttribute('aria-label', `Delete ${book.title}`);
    del.addEventListener('click', () => {
      books = books.filter((b) => b !== book);
      save();
      render();
    });
    list.append(item);
  }
  counter.textContent = `${books.length} ${books.length === 1 ? 'book' : 'books'}`;
  empty.hidden = books.length > 0;
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const title = titleInput.value.trim();
  if (!title) {
    error.textContent = 'Title is required';
    titleInput.focus();
    return;
  }
  error.textContent = '';
  books.push({ id: Date.now() + Math.random(), title, author: authorInput.value.trim(), read: false });
  save();
  form.reset();
  titleInput.focus();
  render();
});

for (const button of filterButtons) {
  button.addEventListener('click', () => {
    filter = button.dataset.filter;
    for (const b of filterButtons) b.setAttribute('aria-pressed', String(b === button));
    render();
  });
}

render();
