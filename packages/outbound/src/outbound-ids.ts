import { randomToken } from "@tessera/crypto";

// 24 characters of a random token: 144 bits, and URL- and header-safe (base64url).
const randomPart = () => randomToken().slice(0, 24);

/** A new endpoint id: `ep_` and 24 random characters. */
export const newEndpointId = (): string => `ep_${randomPart()}`;

/** A new message id: `msg_` and 24 random characters, the `webhook-id` of its deliveries. */
export const newMessageId = (): string => `msg_${randomPart()}`;
