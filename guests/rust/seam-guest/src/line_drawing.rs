//! The VT100 special graphics character set: what a terminal draws for the ASCII letters a
//! program prints after switching to it (`ESC ( 0`). curses draws boxes this way outside a UTF-8
//! locale, so `lqqk` on the wire is `┌──┐` on the screen. Shared by `plain` and the host's
//! terminal emulator.

/// The character drawn for `c` in the special graphics set; None for what the set leaves as is.
pub fn special_graphic(c: char) -> Option<char> {
    const TABLE: [char; 32] = [
        '\u{a0}', '◆', '▒', '␉', '␌', '␍', '␊', '°', '±', '␤', '␋', '┘', '┐', '┌', '└', '┼', '⎺', '⎻', '─', '⎼', '⎽',
        '├', '┤', '┴', '┬', '│', '≤', '≥', 'π', '≠', '£', '·',
    ];
    let index = u32::from(c).checked_sub(0x5f)?;
    TABLE.get(usize::try_from(index).ok()?).copied()
}

#[cfg(test)]
mod tests {
    use super::special_graphic;

    #[test]
    fn box_letters_are_box_characters_and_the_rest_is_left() {
        let drawn: String = "lqkxmj".chars().filter_map(special_graphic).collect();
        assert_eq!(drawn, "┌─┐│└┘");
        assert_eq!(special_graphic('~'), Some('·'));
        assert_eq!(special_graphic('A'), None);
        assert_eq!(special_graphic('\u{7f}'), None);
        assert_eq!(special_graphic('é'), None);
    }
}
