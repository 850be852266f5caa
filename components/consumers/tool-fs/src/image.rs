//! Image formats a model can look at, recognized by their signature bytes (names lie), and
//! checked whole: a model's API refuses a truncated image outright, failing the whole turn,
//! where a clear error here lets the model try something else.

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

/// What is missing from an image of type `mime_type`, when it is cut short or damaged. Only
/// the frame is checked (header, dimensions, end marker), not every pixel.
pub fn damage(mime_type: &str, data: &[u8]) -> Option<&'static str> {
    let u32_be = |at: usize| {
        data.get(at..at + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    let u32_le = |at: usize| {
        data.get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let u16_le = |at: usize| data.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    match mime_type {
        "image/png" if data.get(12..16) != Some(b"IHDR") => Some("it has no IHDR header"),
        "image/png" if u32_be(16).unwrap_or(0) == 0 || u32_be(20).unwrap_or(0) == 0 => Some("its size is zero"),
        "image/png" if !data.ends_with(b"IEND\xaeB`\x82") => Some("it does not end with IEND: it is cut short"),
        // Some writers pad after the end marker: it is looked for near the end.
        "image/jpeg"
            if !data[data.len().saturating_sub(1024)..]
                .windows(2)
                .any(|w| w == b"\xff\xd9") =>
        {
            Some("it has no end-of-image marker: it is cut short")
        }
        "image/gif" if u16_le(6).unwrap_or(0) == 0 || u16_le(8).unwrap_or(0) == 0 => Some("its size is zero"),
        "image/gif" if data.len() < 14 || data.last() != Some(&0x3b) => {
            Some("it does not end with the GIF trailer: it is cut short")
        }
        "image/webp" if u32_le(4).is_none_or(|size| (data.len() as u64) < u64::from(size) + 8) => {
            Some("it is shorter than its RIFF header says: it is cut short")
        }
        "image/webp" if !matches!(data.get(12..16), Some(b"VP8 " | b"VP8L" | b"VP8X")) => {
            Some("it has no VP8 image chunk")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\0\x05\0\x01\xff\x89\x99=\x1d\0\0\0\0IEND\xaeB`\x82";

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

    #[test]
    fn whole_images_pass_and_cut_ones_say_what_is_missing() {
        assert_eq!(damage("image/png", PNG), None);
        assert!(damage("image/png", &PNG[..30]).is_some_and(|why| why.contains("IEND")));
        assert!(damage("image/png", &PNG[..12]).is_some());
        let gif =
            b"GIF89a\x01\0\x01\0\x80\0\0\xff\xff\xff\0\0\0!\xf9\x04\x01\0\0\0\0,\0\0\0\0\x01\0\x01\0\0\x02\x02D\x01\0;";
        assert_eq!(damage("image/gif", gif), None);
        assert!(damage("image/gif", b"GIF89a").is_some());
        assert_eq!(damage("image/jpeg", b"\xff\xd8\xff\xe0rest\xff\xd9"), None);
        assert!(damage("image/jpeg", b"\xff\xd8\xff\xe0rest").is_some());
        assert_eq!(damage("image/webp", b"RIFF\x08\0\0\0WEBPVP8 "), None);
        assert!(damage("image/webp", b"RIFF\x40\0\0\0WEBPVP8 ").is_some());
    }
}
