const PRICE_PENCE = 3900;
const MAX_QTY = 5;
const KEY = 'lumen.basket';
const qty = document.getElementById('qty');
let basket = 0;
try { basket = Number(JSON.parse(localStorage.getItem(KEY) || '0')) || 0; } catch { basket = 0; }
const money = (pence) => '£' + (pence / 100).toFixed(2);
function showBasket() {
  document.getElementById('basket').textContent = basket === 0 ? 'Basket: 0 items' : 'Basket: ' + basket + (basket === 1 ? ' item, ' : ' items, ') + money(basket * PRICE_PENCE);
}
function setQty(n) { qty.value = String(Math.min(MAX_QTY, Math.max(1, n))); }
document.getElementById('minus').addEventListener('click', () => setQty(Number(qty.value) - 1));
document.getElementById('plus').addEventListener('click', () => setQty(Number(qty.value) + 1));
for (const radio of document.querySelectorAll('input[name="finish"]')) {
  radio.addEventListener('change', () => {
    document.getElementById('selected').textContent = 'Selected: ' + radio.value;
    document.getElementById('swatch').className = 'swatch ' + (radio.value === 'Brass' ? 'brass' : 'black');
  });
}
document.getElementById('add').addEventListener('click', () => {
  basket += Number(qty.value);
  localStorage.setItem(KEY, JSON.stringify(basket));
  showBasket();
});
showBasket();
