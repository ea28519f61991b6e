import type { Case, Persona, Task } from '../slots/schema.js';

/**
 * A small hand-written task with the facts persona code cares about (colours, numbers, components, a
 * NEGATIVE slot). Tests use it, and it shows the minimum a Task needs when no dataset is at hand.
 */
export const BAKERY_TASK: Task = {
  id: 'bakery-landing',
  title: 'Bakery Landing Page',
  category: 'Content Presentation',
  goldInstruction:
    'Build a landing page for a small neighbourhood bakery called Crumb & Co. ' +
    'The header must have a navy background with the bakery name in white. ' +
    'Below the header, show exactly 3 product cards, each with a photo, a name and a price. ' +
    'Add a contact form with fields for name, email and message, and a Send button. ' +
    'The footer should list the opening hours, Monday to Saturday from 7am to 6pm. ' +
    'Do not add any login or sign-up page.',
  slots: [
    { id: 'header-colour', task: 'Header has a navy background', expectedResult: 'The header background is navy blue', targetComponent: 'Header', assertionType: 'POSITIVE', cTech: 1 },
    { id: 'brand-name', task: 'Show the bakery name Crumb & Co in the header in white text', expectedResult: 'Crumb & Co appears in white in the header', targetComponent: 'Header title', assertionType: 'POSITIVE', cTech: 1 },
    { id: 'product-cards', task: 'Show exactly 3 product cards with photo, name and price', expectedResult: '3 product cards are visible, each with an image, a name and a price', targetComponent: 'Product cards', assertionType: 'POSITIVE', cTech: 2 },
    { id: 'contact-form', task: 'Contact form with name, email and message fields and a Send button', expectedResult: 'A form with name, email and message inputs and a Send button', targetComponent: 'Contact form', assertionType: 'POSITIVE', cTech: 2 },
    { id: 'opening-hours', task: 'Footer lists opening hours Monday to Saturday 7am to 6pm', expectedResult: 'The footer shows Monday-Saturday, 7am-6pm', targetComponent: 'Footer', assertionType: 'POSITIVE', cTech: 1 },
    { id: 'no-login', task: 'Do not add a login or sign-up page', expectedResult: 'No login or sign-up page or link exists', targetComponent: 'Login page', assertionType: 'NEGATIVE', cTech: 1 },
  ],
  personas: {},
  source: 'test/example-task.ts',
};

/** A Case of a task seen through one persona, weights equal: enough for the simulated user and leak tests. */
export function exampleCase(task: Task, persona: Persona, instruction: string, degradation = { omits: [] as string[], blurs: [] as string[], contradicts: [] as string[] }): Case {
  const withPersona: Task = { ...task, personas: { ...task.personas, [persona]: { instruction, degradation } } };
  return {
    id: `${task.id}_${persona}`,
    taskId: task.id,
    persona,
    instruction,
    difficulty: 'easy',
    difficultySource: 'computed',
    slots: task.slots.map((s) => ({ ...s, weight: 1 })),
    task: withPersona,
  };
}
