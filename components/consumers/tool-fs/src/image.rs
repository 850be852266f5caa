//! Image formats a model can look at, recognized by their signature bytes (names lie).

/// The MIME type of `data` when it is a PNG, JPEG, GIF or WebP image.
pub fn mime_type(data: &[u8]) -> Option<&'static str> {
    if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if data.starts_with(b"\xff\xd8\xff") {
        Some("image/jpeg")
    } else if data.starts_with(b"GIF87a") || data.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if data.len() >= 12 && data.starts_with(b"RIFF") && &data[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognizes_signatures() {
        assert_eq!(mime_type(b"\x89PNG\r\n\x1a\n...."), Some("image/png"));
        assert_eq!(mime_type(b"\xff\xd8\xff\xe0"), Some("image/jpeg"));
        assert_eq!(mime_type(b"GIF89a..."), Some("image/gif"));
        assert_eq!(mime_type(b"RIFF\x10\0\0\0WEBPVP8 "), Some("image/webp"));
        assert_eq!(mime_type(b"RIFF\x10\0\0\0WAVE"), None);
        assert_eq!(mime_type(b"%PDF-1.7"), None);
        assert_eq!(mime_type(b""), None);
    }
}
