/**
 * Who asks for passkeys: the relying party id (a host name the credentials are bound to), the
 * exact origin the browser must report, and the name authenticators show.
 */
export interface WebAuthnRelyingParty {
  readonly rpId: string;
  readonly origin: string;
  readonly rpName: string;
}

/**
 * The relying party of an app served at `appUrl` (`APP_URL`): its host name as the id and its
 * origin as the one origin answers may come from. Throws a TypeError for a URL that is not one.
 */
export function relyingPartyOf(appUrl: string, rpName: string): WebAuthnRelyingParty {
  let url: URL;
  try {
    url = new URL(appUrl);
  } catch {
    throw new TypeError(
      `appUrl must be an absolute URL to derive passkeys' relying party; got ${JSON.stringify(appUrl)}`,
    );
  }
  return { rpId: url.hostname, origin: url.origin, rpName };
}
