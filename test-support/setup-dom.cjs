require('@testing-library/jest-dom');

// jsdom has no matchMedia; react-hot-toast asks it for prefers-reduced-motion. Nothing matches.
if (typeof window !== 'undefined' && !window.matchMedia) {
  window.matchMedia = (query) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  });
}

// jsdom has no TextEncoder/TextDecoder; react-router uses them.
if (typeof globalThis.TextEncoder === 'undefined') {
  const { TextEncoder, TextDecoder } = require('node:util');
  Object.assign(globalThis, { TextEncoder, TextDecoder });
}

// jsdom has no modal dialogs: showModal() and close() only toggle `open` (close() fires 'close'),
// and Escape fires a cancelable 'cancel' at the open dialog, which closes unless it is cancelled.
// The top layer and the inert page behind exist only in browsers; the browser tests cover them.
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal() {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close() {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
  document.addEventListener('keydown', (event) => {
    const dialog = event.key === 'Escape' ? [...document.querySelectorAll('dialog[open]')].pop() : undefined;
    if (dialog && dialog.dispatchEvent(new Event('cancel', { cancelable: true }))) dialog.close();
  });
}
