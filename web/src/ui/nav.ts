// Client-side navigation: pages are chosen from location.pathname.
type Router = () => void;
let router: Router = () => {};

export function setRouter(r: Router) {
  router = r;
  window.addEventListener("popstate", () => router());
  // Same-origin links marked data-link navigate without a reload.
  document.addEventListener("click", (e) => {
    const a = (e.target as Element).closest?.("a[data-link]") as HTMLAnchorElement | null;
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || a.target) return;
    e.preventDefault();
    navigate(a.getAttribute("href") ?? "/");
  });
}

export function navigate(path: string, replace = false) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  router();
}
