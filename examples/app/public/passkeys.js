// The account pages' passkey buttons, over @simplewebauthn/browser (loaded before this script as
// the SimpleWebAuthnBrowser global): add a passkey on /account/security, sign in with one on
// /login (a button, and the browser's autofill where it offers passkeys), answer the second step
// with one on /login/second_factor. Each asks the server for options, lets the browser talk to
// the authenticator, and hands the answer back; the server verifies everything.
const { startRegistration, startAuthentication, browserSupportsWebAuthn } = SimpleWebAuthnBrowser;

async function postJson(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer?.error?.message ?? response.statusText);
  return answer;
}

function showError(container, error) {
  const alert = container.querySelector(".passkey-error");
  if (!alert || error?.name === "AbortError") return;
  alert.textContent = error?.message ?? String(error);
  alert.hidden = false;
}

for (const form of document.querySelectorAll("form[data-passkey-add]")) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const optionsJSON = await postJson(form.dataset.optionsUrl, {});
      const response = await startRegistration({ optionsJSON });
      await postJson(form.action, { name: form.elements.name.value, response });
      window.location.reload();
    } catch (error) {
      showError(form, error);
    }
  });
}

/** Signs in with a passkey: from the button, or from the browser's autofill (`autofill`). */
async function signInWithPasskey(button, autofill) {
  const { options, challenge_id } = await postJson(button.dataset.optionsUrl, {});
  const response = await startAuthentication({
    optionsJSON: options,
    useBrowserAutofill: autofill,
  });
  const remember = document.querySelector('input[name="remember_me"]');
  const { location } = await postJson(button.dataset.action, {
    challenge_id,
    response,
    remember_me: remember?.checked === true,
  });
  window.location.assign(location);
}

const signInButton = document.querySelector("button[data-passkey-login]");
if (signInButton && browserSupportsWebAuthn()) {
  const container = signInButton.parentElement;
  signInButton.addEventListener("click", () =>
    signInWithPasskey(signInButton, false).catch((error) => showError(container, error)),
  );
  // Conditional UI: the email field's autofill offers the site's passkeys. A click on the
  // button aborts this waiting request (the library does), and starts its own.
  SimpleWebAuthnBrowser.browserSupportsWebAuthnAutofill().then((supported) => {
    if (supported)
      signInWithPasskey(signInButton, true).catch((error) => showError(container, error));
  });
}

for (const form of document.querySelectorAll("form[data-passkey-second-factor]")) {
  form.addEventListener("submit", async (event) => {
    if (form.elements.passkey.value !== "") return;
    event.preventDefault();
    try {
      const optionsJSON = await postJson(form.dataset.optionsUrl, {});
      const response = await startAuthentication({ optionsJSON });
      form.elements.passkey.value = JSON.stringify(response);
      form.submit();
    } catch (error) {
      showError(form, error);
    }
  });
}
