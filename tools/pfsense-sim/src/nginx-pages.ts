// Pages nginx itself answers with on a pfSense appliance: paths with no generated pfrest endpoint never
// reach PHP (try_files … =404), so they get nginx's HTML, not the JSON envelope.

function page(status: string): string {
  return `<html>\r\n<head><title>${status}</title></head>\r\n<body>\r\n<center><h1>${status}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

export const NGINX_404 = page('404 Not Found');
export const NGINX_413 = page('413 Request Entity Too Large');
