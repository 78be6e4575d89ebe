import { escapeHtml } from "@tessera/http";

/** What every page passes to {@link renderLayout}. */
export interface PageContent {
  readonly title: string;
  /** Trusted HTML for the main region: build it with escapeHtml for every value. */
  readonly mainHtml: string;
}

/** The page frame shared by every HTML page: head, header, main region. */
export function renderLayout(page: PageContent): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · Tessera example</title>
<link rel="stylesheet" href="/assets/app.css">
</head>
<body>
<header class="site-header"><a class="brand" href="/">Tessera example</a></header>
<main id="main">
${page.mainHtml}
</main>
</body>
</html>
`;
}
