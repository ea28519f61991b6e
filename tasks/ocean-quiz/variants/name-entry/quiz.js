const form = document.getElementById('quiz');
const result = document.getElementById('result');
const questions = [...form.querySelectorAll('fieldset')];

function clearMarks() {
  for (const label of form.querySelectorAll('label')) label.classList.remove('correct', 'wrong');
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  clearMarks();
  const chosen = questions.map((q) => q.querySelector('input:checked'));
  if (chosen.some((c) => !c)) {
    result.textContent = 'Please answer every question';
    result.className = 'result warning';
    return;
  }
  let score = 0;
  questions.forEach((q, i) => {
    const right = q.dataset.answer;
    for (const input of q.querySelectorAll('input')) {
      if (input.value === right) input.parentElement.classList.add('correct');
      else if (input === chosen[i]) input.parentElement.classList.add('wrong');
    }
    if (chosen[i].value === right) score++;
  });
  result.textContent = `You scored ${score} out of ${questions.length}`;
  result.className = 'result';
});

document.getElementById('again').addEventListener('click', () => {
  form.reset();
  clearMarks();
  result.textContent = '';
});
