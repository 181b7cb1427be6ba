// Runs in the page, with only what preload.js exposes.
const button = document.getElementById('sign-in');
const status = document.getElementById('status');

function show(result) {
  if (result.status === 'signed-in') {
    status.textContent = result.name ? `Signed in as ${result.name}.` : 'Signed in.';
    button.disabled = true;
  } else {
    status.textContent = result.message;
    button.disabled = result.status === 'signing-in';
  }
}

window.launcher.onStatus(show);
button.addEventListener('click', async () => {
  show(await window.launcher.signIn());
});
